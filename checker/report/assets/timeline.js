(function () {
  'use strict';
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  var lines = JSON.parse(document.getElementById('trace-data').textContent);
  var svg = document.getElementById('tl'), zoom = document.getElementById('zoom');
  var wrap = document.getElementById('wrap'), tip = document.getElementById('tip');
  var detail = document.getElementById('detail-text');
  var L = +svg.getAttribute('data-label'), N = +svg.getAttribute('data-steps');
  var floats = [];
  document.querySelectorAll('#float text').forEach(function (t) {
    var w = t.getAttribute('data-w');
    var vlabel = t.classList.contains('vlabel');  // bold: wider per character
    floats.push({el: t, x: +t.getAttribute('data-x'), w: w === null ? -1 : +w,
                 len: t.textContent.length * (vlabel ? 7 : 6) + 6, vlabel: vlabel});
  });
  var byLine = {};
  svg.querySelectorAll('[data-i]').forEach(function (el) {
    el.getAttribute('data-i').split(' ').forEach(function (i) {
      if (i !== '') (byLine[i] = byLine[i] || []).push(el);
    });
  });
  var k = 1, tx = 0, W = 1200;
  function clampTx() { tx = Math.min(0, Math.max(tx, W - N * k)); }
  // Step numbers on the axis, under the time ticks: a label every 1, 2 or 5 times a power of
  // ten steps, at least 70 px apart, skipped where a violation label is; drawn from a pool.
  var stepPool = [], floatGroup = document.getElementById('float');
  function stepLabels(taken) {
    var every = 1;
    while (every * k < 70) every *= String(every).charAt(0) === '2' ? 2.5 : 2;
    var used = 0;
    for (var s = Math.ceil(-tx / k / every) * every; s <= (W - tx) / k && s < N; s += every) {
      var x = L + tx + k * (s + 0.5), label = 's' + s, len = label.length * 6 + 4;
      if (x < L || x + len > L + W || taken.some(function (r) { return x < r[1] && x + len > r[0]; })) continue;
      if (used === stepPool.length) {
        var t = document.createElementNS(svg.namespaceURI, 'text');
        t.setAttribute('class', 'stick'); t.setAttribute('y', '21');
        floatGroup.appendChild(t); stepPool.push(t);
      }
      var el = stepPool[used++];
      el.textContent = label; el.setAttribute('x', (x + 2).toFixed(1)); el.style.display = '';
    }
    for (; used < stepPool.length; used++) stepPool[used].style.display = 'none';
  }
  function apply() {
    zoom.setAttribute('transform', 'translate(' + (L + tx) + ',0) scale(' + k + ',1)');
    var edge = {tick: -1, vlabel: -1};  // right end of the last label shown, per row
    var taken = [];  // [left, right] of each violation label shown
    for (var i = 0; i < floats.length; i++) {
      var f = floats[i], x = L + tx + k * f.x, show, row = f.vlabel ? 'vlabel' : 'tick';
      // A violation label at the right edge ends there instead of being cut off.
      if (f.vlabel && x <= L + W && x + f.len > L + W) x = Math.max(L, L + W - f.len);
      if (f.w < 0) {
        // A tick (or violation) label that would overlap the previous one of its row is hidden.
        show = x >= L && x <= L + W && x >= edge[row];
        if (show) edge[row] = x + f.len;
        if (show && f.vlabel) taken.push([x, x + f.len]);
      } else {
        var left = Math.max(x, L), right = Math.min(x + k * f.w, L + W);
        show = right - left >= f.len;
        x = left;
      }
      f.el.style.display = show ? '' : 'none';
      if (show) f.el.setAttribute('x', (x + 2).toFixed(1));
    }
    stepLabels(taken);
  }
  function fit() {
    W = Math.max(200, (wrap.clientWidth || 1360) - L - 8);
    svg.setAttribute('width', L + W + 8);
    k = W / N; tx = 0; apply();
  }
  function zoomAt(px, factor) {
    var s = (px - tx) / k;
    k = Math.min(Math.max(k * factor, W / N), 60);
    tx = px - s * k; clampTx(); apply();
  }
  function centerOn(step) { tx = W / 2 - k * (step + 0.5); clampTx(); apply(); }
  function zoomTo(a, b) {
    k = Math.min(Math.max(W / Math.max(1, b - a), W / N), 60);
    tx = -k * a; clampTx(); apply();
  }
  function stepOf(i) { return parseInt(lines[i], 10); }
  function text(ids) { return ids.map(function (i) { return lines[i]; }).join('\n'); }
  function ids(el, name) {
    var v = el.getAttribute(name);
    return v ? v.split(' ').filter(function (s) { return s !== ''; }).map(Number) : [];
  }
  svg.addEventListener('wheel', function (e) {
    e.preventDefault();
    zoomAt(e.clientX - svg.getBoundingClientRect().left - L, e.deltaY < 0 ? 1.25 : 0.8);
  }, {passive: false});
  var drag = null;
  svg.addEventListener('mousedown', function (e) { drag = {x: e.clientX, tx: tx, moved: false}; });
  window.addEventListener('mouseup', function () { setTimeout(function () { drag = null; }, 0); });
  window.addEventListener('mousemove', function (e) {
    if (drag && e.buttons) {
      if (Math.abs(e.clientX - drag.x) > 2) drag.moved = true;
      tx = drag.tx + e.clientX - drag.x; clampTx(); apply();
    }
  });
  svg.addEventListener('mousemove', function (e) {
    var el = e.target.closest ? e.target.closest('[data-i]') : null;
    if (!el || drag) { tip.style.display = 'none'; return; }
    tip.textContent = text(ids(el, 'data-i'));
    tip.style.left = Math.min(e.clientX + 12, window.innerWidth - 300) + 'px';
    tip.style.top = (e.clientY + 14) + 'px';
    tip.style.display = 'block';
  });
  svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
  svg.addEventListener('click', function (e) {
    if (drag && drag.moved) return;
    var el = e.target.closest ? e.target.closest('[data-i]') : null;
    if (!el) return;
    var head = el.getAttribute('data-state') ? 'state ' + el.getAttribute('data-state') + '\n' : '';
    detail.textContent = head + text(ids(el, 'data-i'));
  });
  document.getElementById('fit').onclick = fit;
  document.getElementById('zin').onclick = function () { zoomAt(W / 2, 2); };
  document.getElementById('zout').onclick = function () { zoomAt(W / 2, 0.5); };
  function toggle(id, cls) {
    var box = document.getElementById(id);
    var set = function () { document.body.classList.toggle(cls, !box.checked); };
    box.onchange = set; set();
  }
  toggle('show-msg', 'nomsg');
  toggle('show-hb', 'nohb');
  function clearMarks() {
    document.querySelectorAll('.hl').forEach(function (el) { el.classList.remove('hl', 'hl-ack', 'hl-write', 'hl-loss', 'hl-query'); });
    document.querySelectorAll('li.sel').forEach(function (el) { el.classList.remove('sel'); });
  }
  function mark(list, cls) {
    list.forEach(function (i) {
      (byLine[i] || []).forEach(function (el) {
        if (!el.classList.contains('vl')) el.classList.add('hl', cls);
      });
    });
  }
  function selectRow(li) {
    clearMarks();
    li.classList.add('sel');
    var ack = ids(li, 'data-ack'), write = ids(li, 'data-write'), loss = ids(li, 'data-loss');
    var query = ids(li, 'data-query');
    mark(write, 'hl-write'); mark(loss, 'hl-loss'); mark(query, 'hl-query'); mark(ack, 'hl-ack');
    detail.textContent = li.textContent + '\nacknowledged by:\n' + (text(ack) || '(no acknowledged write)') +
        '\nwritten by:\n' + (text(write) || '(none found)') +
        '\nlost by:\n' + (text(loss) || '(not named by the report)') +
        (query.length ? '\nmissed by the query:\n' + text(query) : '');
    // Zoom to the steps from the acknowledgement to the loss, and the read that missed it.
    var steps = ack.concat(write, loss, query).map(stepOf);
    if (steps.length) {
      var a = Math.min.apply(null, steps), b = Math.max.apply(null, steps) + 1;
      var pad = Math.max(10, (b - a) * 0.05);
      zoomTo(Math.max(0, a - pad), Math.min(N, b + pad));
    }
  }
  document.querySelectorAll('li.lost').forEach(function (li) {
    li.addEventListener('click', function () { selectRow(li); });
  });
  document.querySelectorAll('a.goto').forEach(function (a) {
    a.addEventListener('click', function (e) { e.preventDefault(); centerOn(+a.getAttribute('data-step')); });
  });
  // A resize keeps the steps in view.
  window.addEventListener('resize', function () {
    var a = -tx / k, b = a + W / k;
    W = Math.max(200, (wrap.clientWidth || 1360) - L - 8);
    svg.setAttribute('width', L + W + 8);
    zoomTo(a, b);
  });
  fit();
  // URL fragment: #steps=A-B zooms to those steps, #select selects the first lost row,
  // #selftest checks the page (browser_timeline_test.py); joined by '&'.
  var hash = location.hash.replace(/^#/, '').split('&');
  // The first lost row whose acknowledgement and loss are both known, else the first with an
  // acknowledgement.
  function firstLostRow() {
    var row = null, any = null;
    document.querySelectorAll('li.lost').forEach(function (li) {
      if (!li.getAttribute('data-ack')) return;
      if (!any) any = li;
      if (!row && li.getAttribute('data-loss')) row = li;
    });
    return row || any;
  }
  hash.forEach(function (part) {
    var m = /^steps=(\d+)-(\d+)$/.exec(part);
    if (m) zoomTo(+m[1], +m[2]);
    if (part === 'select' && firstLostRow()) selectRow(firstLostRow());
  });
  if (hash.indexOf('selftest') >= 0) {
    var box = svg.getBoundingClientRect();
    var result = {errors: errors, lanes: [], states: [], violations: [], click: null};
    result.resources = performance.getEntriesByType('resource').map(function (r) { return r.name; });
    document.querySelectorAll('#rows g.lane').forEach(function (g) { result.lanes.push(g.getAttribute('data-node')); });
    document.querySelectorAll('#zoom .bar').forEach(function (b) {
      var s = b.getAttribute('data-state');
      if (result.states.indexOf(s) < 0) result.states.push(s);
    });
    document.querySelectorAll('#zoom .vl').forEach(function (v) {
      var r = v.getBoundingClientRect(), step = +v.getAttribute('data-step');
      result.violations.push({step: step, x: r.left + r.width / 2 - box.left, expect_x: L + tx + k * (step + 0.5)});
    });
    result.vlabels = [];
    document.querySelectorAll('#float text.vlabel').forEach(function (t) {
      result.vlabels.push({text: t.textContent, step: +t.getAttribute('data-x'), shown: t.style.display !== 'none'});
    });
    var row = firstLostRow();
    if (row) {
      row.dispatchEvent(new MouseEvent('click', {bubbles: true}));
      var hl = [];
      document.querySelectorAll('#zoom .hl-ack').forEach(function (el) { hl.push(text(ids(el, 'data-i'))); });
      result.click = {row: row.textContent, ack: text(ids(row, 'data-ack')), highlighted_ack: hl,
                      highlighted: document.querySelectorAll('#zoom .hl').length};
    }
    // Zoomed in on the first 40 steps, the axis numbers them.
    zoomTo(0, 40);
    result.step_labels = stepPool.filter(function (t) { return t.style.display !== 'none'; })
        .map(function (t) { return t.textContent; });
    result.load_ms = Math.round(performance.now());
    var pre = document.createElement('pre');
    pre.id = 'selftest';
    pre.textContent = JSON.stringify(result);
    document.body.appendChild(pre);
  }
})();
