// repartsim: deterministic simulator and model checker for table repartition.
#include "tools/repartsim/verbs.h"

int main(int argc, char** argv) { return repartsim::tools::RunCli(argc, argv); }
