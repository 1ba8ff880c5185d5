#include "checker/campaign/worker_pool.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <deque>
#include <optional>
#include <utility>

#include "sim/assert.h"

namespace repartsim::campaign {

namespace {

constexpr int kWriteFailedExit = 70;  // a worker that cannot write its pipe: an internal error

struct Worker {
  pid_t pid = 0;
  int fd = -1;
  uint32_t slot = 0;
  std::vector<size_t> tasks;      // in the order the worker runs them
  std::string buffer;             // bytes read, not yet a whole line
  std::optional<size_t> running;  // the task it announced and has not reported yet
};

bool WriteAll(int fd, const std::string& text) {
  for (size_t off = 0; off < text.size();) {
    const ssize_t n = write(fd, text.data() + off, text.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// The body of a forked worker: runs `tasks`, one line each, then exits 0. Never returns.
[[noreturn]] void WorkerMain(const PoolTasks& tasks, int fd, uint32_t slot,
                             const std::vector<size_t>& mine) {
  if (tasks.in_child) tasks.in_child();
  for (size_t index : mine) {
    // "+<index>" first, so the parent knows which task a worker dying of it was running.
    if (!WriteAll(fd, "+" + std::to_string(index) + "\n")) _exit(kWriteFailedExit);
    std::string line = std::to_string(index) + " " + tasks.run(index, slot) + "\n";
    if (!WriteAll(fd, line)) _exit(kWriteFailedExit);
    if (tasks.after_report) tasks.after_report(index, slot);
  }
  close(fd);
  _exit(0);
}

class Pool {
 public:
  Pool(const PoolTasks& tasks, uint32_t jobs, Assignment assignment)
      : tasks_(tasks), jobs_(std::max<uint32_t>(jobs, 1)) {
    outcome_.reported.assign(tasks.count, false);
    free_slots_.assign(jobs_, true);
    if (assignment == Assignment::kStriped) {
      for (uint32_t w = 0; w < jobs_ && w < tasks.count; ++w) {
        std::vector<size_t> stripe;
        for (size_t k = w; k < tasks.count; k += jobs_) stripe.push_back(k);
        pending_.push_back(std::move(stripe));
      }
    } else {
      for (size_t k = 0; k < tasks.count; ++k) pending_.push_back({k});
    }
  }

  PoolOutcome Run() {
    // Even one job forks a worker: a task that dies of an internal error (exit 70) must not
    // take the campaign and its reports down with it.
    while (true) {
      CheckStop();
      StartWorkers();
      if (running_.empty()) {
        if (outcome_.stopped || pending_.empty()) break;
        RunHere(pending_.front());  // no worker could be forked: run them in this process
        pending_.pop_front();
        continue;
      }
      if (!PollOnce()) break;
    }
    for (Worker& w : running_) Reap(w);  // only after a poll error
    running_.clear();
    return std::move(outcome_);
  }

 private:
  bool StopRequested() const { return tasks_.should_stop && tasks_.should_stop(); }

  void CheckStop() {
    if (outcome_.stopped || !StopRequested()) return;
    outcome_.stopped = true;
    pending_.clear();
    for (const Worker& w : running_) kill(w.pid, SIGTERM);
  }

  void StartWorkers() {
    while (!outcome_.stopped && !pending_.empty() && running_.size() < jobs_) {
      uint32_t slot = 0;
      while (!free_slots_[slot]) ++slot;
      int fd[2];
      if (pipe(fd) != 0) return;
      std::fflush(nullptr);
      const pid_t pid = fork();
      if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return;
      }
      if (pid == 0) {
        close(fd[0]);
        WorkerMain(tasks_, fd[1], slot, pending_.front());
      }
      close(fd[1]);
      free_slots_[slot] = false;
      running_.push_back(Worker{pid, fd[0], slot, std::move(pending_.front()), {}, std::nullopt});
      pending_.pop_front();
      ++outcome_.workers_started;
    }
  }

  void RunHere(const std::vector<size_t>& tasks) {
    for (size_t index : tasks) {
      if (StopRequested()) {
        outcome_.stopped = true;
        return;
      }
      Deliver(index, tasks_.run(index, 0));
    }
  }

  void Deliver(size_t index, std::string result) {
    REPARTSIM_ASSERT(index < outcome_.reported.size() && !outcome_.reported[index]);
    outcome_.reported[index] = true;
    tasks_.on_result(index, std::move(result));
  }

  // Reads what the workers wrote; reaps those that closed their pipe. False on a poll error.
  bool PollOnce() {
    std::vector<pollfd> polls;
    for (const Worker& w : running_) polls.push_back({w.fd, POLLIN, 0});
    if (poll(polls.data(), polls.size(), -1) < 0) return errno == EINTR;
    for (size_t k = running_.size(); k-- > 0;) {
      if (polls[k].revents == 0) continue;
      Worker& w = running_[k];
      char buf[65536];
      const ssize_t n = read(w.fd, buf, sizeof(buf));
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        w.buffer.append(buf, static_cast<size_t>(n));
        TakeLines(w);
        continue;
      }
      Reap(w);
      running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(k));
    }
    return true;
  }

  void TakeLines(Worker& w) {
    size_t nl;
    while ((nl = w.buffer.find('\n')) != std::string::npos) {
      const std::string line = w.buffer.substr(0, nl);
      w.buffer.erase(0, nl + 1);
      size_t index = 0;
      if (!line.empty() && line[0] == '+') {
        auto [end, ec] = std::from_chars(line.data() + 1, line.data() + line.size(), index);
        if (ec == std::errc() && end == line.data() + line.size()) w.running = index;
        continue;
      }
      const size_t space = line.find(' ');
      if (space == std::string::npos) continue;
      auto [end, ec] = std::from_chars(line.data(), line.data() + space, index);
      if (ec != std::errc() || end != line.data() + space) continue;
      bool mine = false;
      for (size_t t : w.tasks) mine = mine || t == index;
      if (!mine || outcome_.reported[index]) continue;
      if (w.running == index) w.running.reset();
      Deliver(index, line.substr(space + 1));
    }
  }

  void Reap(Worker& w) {
    close(w.fd);
    int status = 0;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    free_slots_[w.slot] = true;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    // An interruption (SIGINT, SIGTERM, SIGHUP reach the workers too) is not the task's fault.
    const bool interrupted =
        outcome_.stopped ||
        (WIFSIGNALED(status) &&
         (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM || WTERMSIG(status) == SIGHUP));
    if (interrupted) w.running.reset();
    WorkerDeath death{w.slot, static_cast<int>(w.pid), status, {}, std::nullopt};
    std::vector<size_t> rest;  // the tasks after the one it died of
    for (size_t t : w.tasks) {
      if (outcome_.reported[t]) continue;
      if (t == w.running) {
        death.culprit = t;
      } else if (w.running.has_value()) {
        rest.push_back(t);
      }
      if (!w.running.has_value() || t == w.running) death.unreported.push_back(t);
    }
    // A worker that died of a task: the task is named, its other tasks go to a new worker.
    // One that died between tasks (killed from outside) loses the rest of its tasks.
    if (!rest.empty() && !outcome_.stopped) pending_.push_front(std::move(rest));
    outcome_.deaths.push_back(std::move(death));
  }

  const PoolTasks& tasks_;
  const uint32_t jobs_;
  std::deque<std::vector<size_t>> pending_;  // task lists not yet given to a worker
  std::vector<Worker> running_;
  std::vector<bool> free_slots_;
  PoolOutcome outcome_;
};

}  // namespace

PoolOutcome RunPool(const PoolTasks& tasks, uint32_t jobs, Assignment assignment) {
  REPARTSIM_ASSERT(tasks.run && tasks.on_result);
  PoolOutcome outcome = Pool(tasks, jobs, assignment).Run();
  REPARTSIM_ASSERT(outcome.reported.size() == tasks.count);
  return outcome;
}

std::string DescribeWaitStatus(int status) {
  if (WIFSIGNALED(status)) {
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           strsignal(WTERMSIG(status)) + ")";
  }
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  return "status " + std::to_string(status);
}

}  // namespace repartsim::campaign
