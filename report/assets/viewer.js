// The game viewer of drafti's HTML report (inline in the page; no network, no library).
// Every game's <article> carries its data in data-v (format: report/src/html/viewer.rs):
// the board changes of each ply and the engine's scores and lines, all computed by drafti's
// rules core and analysis. This script decodes them and draws: it knows no rule of the game.
// The page is also well-formed XML: html/mod.rs puts this script in a CDATA section, so it must
// never contain the three characters that end one.
// The analysis board (board.js: what-if moves, the engine in the page, the explorer) hooks in
// through DRAFTI.hooks (registered before this script runs) and draws with DRAFTI.view.
(function () {
  'use strict';
  var GEO = DRAFTI.geo, K = DRAFTI.k;
  var hooks = DRAFTI.hooks || [];

  // Calls hook `name` of every registered script; true when one of them handled it.
  function hook(name) {
    var args = Array.prototype.slice.call(arguments, 1), handled = false;
    hooks.forEach(function (h) { if (h[name] && h[name].apply(null, args)) handled = true; });
    return handled;
  }
  var S = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef', C = 'ghijklmnopqrstuvwxyz0123456789+/';
  var B64 = S + C;
  var SVGNS = 'http://www.w3.org/2000/svg';
  var JUDGEMENT = { jb: 'Blunder', jm: 'Mistake', ji: 'Inaccuracy' };
  var COLOR = { jb: '#d62828', jm: '#f08c00', ji: '#e9c46a', best: '#2b9348', move: '#3a6ea5' };
  var viewers = [], active = null;

  // ---- decoding -------------------------------------------------------------------------
  function readScore(t, i) {
    if (t.charAt(i) === '~') {
      var end = t.indexOf('.', i);
      var body = t.slice(i + 1, end);
      var first = body.charAt(0);
      if (first === 'W') return [{ mate: +body.slice(1) }, end + 1];
      if (first === 'B') return [{ mate: -body.slice(1) }, end + 1];
      return [{ cm: +body }, end + 1];
    }
    return [{ cm: B64.indexOf(t.charAt(i)) * 64 + B64.indexOf(t.charAt(i + 1)) - 2048 }, i + 2];
  }

  // Moves as written in fields 3 and 6: returns [move, next index].
  function readMove(t, i, withCaptured) {
    var mv = { path: [], cap: [], crown: false, capture: false, full: false };
    if (S.indexOf(t.charAt(i)) !== -1) {
      mv.path.push(S.indexOf(t.charAt(i)), S.indexOf(t.charAt(i + 1)));
      i += 2;
    } else {
      mv.capture = true;
      while (i < t.length && C.indexOf(t.charAt(i)) !== -1) { mv.path.push(C.indexOf(t.charAt(i))); i++; }
      if (withCaptured) {
        // As many captured squares as landings.
        for (var n = 1; n < mv.path.length; n++) { mv.cap.push(S.indexOf(t.charAt(i))); i++; }
      } else {
        mv.full = t.charAt(i) === ':';
        i++;
      }
    }
    if (t.charAt(i) === '!') { mv.crown = true; i++; }
    return [mv, i];
  }

  function decode(text) {
    var f = text.split('|');
    var start = f[1].length === 1 ? DRAFTI.start : f[1].slice(0, 32);
    var g = {
      start: start.split(''), turn: f[1].charAt(f[1].length - 1), numeric: f[2] === 'n',
      variant: f[7] || 'tz',
      plies: [], scores: [], after: {}, lines: [], boards: null
    };
    var t = f[3], i = 0, r;
    while (i < t.length) { r = readMove(t, i, true); g.plies.push(r[0]); i = r[1]; }
    t = f[4]; i = 0;
    var last = 0;
    while (i < t.length) {
      var ch = t.charAt(i);
      if (ch === '~' || ch === '_') {
        r = readScore(t, ch === '_' ? i + 1 : i);
        i = r[1];
      } else {
        r = [{ cm: last + B64.indexOf(ch) - 31 }];
        i++;
      }
      if (r[0].cm !== undefined) last = r[0].cm;
      g.scores.push(r[0]);
    }
    t = f[5]; i = 0;
    while (i < t.length) {
      var colon = t.indexOf(':', i);
      var ply = +t.slice(i, colon);
      r = readScore(t, colon + 1); g.after[ply] = r[0]; i = r[1];
    }
    if (f[6]) {
      var tokens = f[6].split(' ');
      for (var n = tokens.length - 1; n !== -1; n--) {
        var tok = tokens[n], line = [], cut = tok.charAt(tok.length - 1) === '+';
        if (cut) tok = tok.slice(0, -1);
        if (tok.charAt(0) === '=') {
          line = [g.plies[n]].concat((g.lines[n + 1] || []).slice(0, +tok.slice(1)));
        } else {
          i = 0;
          if (tok.charAt(0) === '*') { line.push(g.plies[n]); i = 1; }
          while (i < tok.length) { r = readMove(tok, i, false); line.push(r[0]); i = r[1]; }
        }
        line.cut = cut;
        g.lines[n] = line;
      }
    }
    g.boards = [g.start];
    return g;
  }

  function board(g, k) {
    while (g.boards.length - 1 < k) {
      var b = g.boards[g.boards.length - 1].slice(), mv = g.plies[g.boards.length - 1];
      var from = mv.path[0], to = mv.path[mv.path.length - 1], piece = b[from];
      b[from] = '.';
      mv.cap.forEach(function (sq) { b[sq] = '.'; });
      b[to] = mv.crown ? piece.toUpperCase() : piece;
      g.boards.push(b);
    }
    return g.boards[k];
  }

  function whiteMoves(g, ply) { return (g.turn === 'w') === (ply % 2 === 1); }

  // 12. for White, 12... for Black, counted from the game's first mover (as the Rust side).
  function moveNumber(g, ply) {
    var i = ply - 1, number = g.turn === 'w' ? Math.floor(i / 2) + 1 : Math.ceil(i / 2) + 1;
    return whiteMoves(g, ply) ? number + '.' : number + '...';
  }

  function squareName(g, sq) { return g.numeric ? String(GEO[sq][3]) : GEO[sq][2]; }

  function moveText(g, mv) {
    var squares = mv.full ? mv.path : [mv.path[0], mv.path[mv.path.length - 1]];
    return squares.map(function (sq) { return squareName(g, sq); }).join(mv.capture ? 'x' : '-');
  }

  function sameMove(a, b) {
    return !!a && !!b && a.path.join() === b.path.join();
  }

  function lineText(g, line, ply0) {
    return line.map(function (mv, j) {
      var ply = ply0 + j + 1;
      var num = j === 0 || whiteMoves(g, ply) ? moveNumber(g, ply) + ' ' : '';
      return num + moveText(g, mv);
    }).join(' ') + (line.cut ? ' \u2026' : '');
  }

  function winPercent(score) {
    if (!score) return null;
    if (score.mate !== undefined) return score.mate > 0 ? 100 : 0;
    return 50 + 50 * (2 / (1 + Math.exp(-K * score.cm)) - 1);
  }

  function scoreText(score) {
    if (!score) return '';
    if (score.mate !== undefined) {
      return (score.mate > 0 ? 'White' : 'Black') + ' wins in ' + Math.abs(score.mate);
    }
    var v = Math.abs(score.cm), sign = score.cm > 0 ? '+' : score.cm === 0 ? '' : '\u2212';
    return sign + Math.floor(v / 100) + '.' + String(100 + v % 100).slice(1);
  }

  // The score after ply k (White's view): see field 5 of the format.
  function afterScore(g, k) {
    if (!g.scores.length) return null;
    if (sameMove(g.lines[k - 1] && g.lines[k - 1][0], g.plies[k - 1])) return g.scores[k - 1];
    return g.after[k] || g.scores[k];
  }

  // ---- drawing --------------------------------------------------------------------------
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function html(tag, cls, parent, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  function centre(v, sq) {
    var file = GEO[sq][0], rank = GEO[sq][1];
    return v.flipped ? [7 - file + 0.5, rank + 0.5] : [file + 0.5, 7 - rank + 0.5];
  }

  function arrow(layer, v, path, color, width) {
    if (path.length < 2) return;
    var pts = path.map(function (sq) { return centre(v, sq); });
    var tip = pts[pts.length - 1], prev = pts[pts.length - 2];
    var dx = tip[0] - prev[0], dy = tip[1] - prev[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
    var ux = dx / len, uy = dy / len, head = width * 2.4, half = width * 1.5;
    var bx = tip[0] - ux * head, by = tip[1] - uy * head;
    var line = pts.slice(0, -1).map(function (p) { return p[0] + ',' + p[1]; });
    line.push(bx + ',' + by);
    var grp = el('g', { fill: color, stroke: color, opacity: '0.9' }, layer);
    el('polyline', {
      points: line.join(' '), fill: 'none', 'stroke-width': width,
      'stroke-linecap': 'round', 'stroke-linejoin': 'round'
    }, grp);
    el('polygon', {
      points: tip[0] + ',' + tip[1] + ' ' + (bx - uy * half) + ',' + (by + ux * half) + ' ' +
        (bx + uy * half) + ',' + (by - ux * half), stroke: 'none'
    }, grp);
  }

  function drawBoard(v) {
    var svg = v.svg, g = v.g;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    el('rect', { width: 8, height: 8, 'class': 'lt' }, svg);
    v.squares = [];
    for (var sq = 0; sq !== 32; sq++) {
      var c = centre(v, sq);
      var grp = el('g', { 'data-sq': GEO[sq][2], transform: 'translate(' + (c[0] - 0.5) + ',' + (c[1] - 0.5) + ')' }, svg);
      el('rect', { width: 1, height: 1, 'class': 'dk' }, grp);
      if (g.numeric) {
        el('text', { x: 0.06, y: 0.22, 'class': 'no' }, grp).textContent = GEO[sq][3];
      }
      v.squares.push(grp);
    }
    if (!g.numeric) {
      for (var i = 0; i !== 8; i++) {
        var file = v.flipped ? 7 - i : i, rank = v.flipped ? i : 7 - i;
        el('text', { x: i + 0.94, y: 7.95, 'class': 'co', 'text-anchor': 'end' }, svg).textContent = 'abcdefgh'.charAt(file);
        el('text', { x: 0.05, y: i + 0.24, 'class': 'co' }, svg).textContent = String(rank + 1);
      }
    }
    v.arrows = el('g', { 'class': 'ar' }, svg);
  }

  var PIECE = { w: 'wm', W: 'wk', b: 'bm', B: 'bk' };

  function drawPieces(v) {
    // A what-if line (board.js) shows its own position and last move.
    var b = v.alt ? v.alt.board : board(v.g, v.k);
    var last = v.alt ? v.alt.last : v.k ? v.g.plies[v.k - 1] : null;
    var lastCls = v.alt ? 'wi' : v.k ? v.moves[v.k - 1] && v.moves[v.k - 1].cls : '';
    for (var sq = 0; sq !== 32; sq++) {
      var grp = v.squares[sq];
      while (grp.childNodes.length !== 1 + (v.g.numeric ? 1 : 0)) grp.removeChild(grp.lastChild);
      var kind = PIECE[b[sq]] || '';
      grp.setAttribute('data-pc', kind);
      if (last && (sq === last.path[0] || sq === last.path[last.path.length - 1])) {
        el('rect', { width: 1, height: 1, 'class': 'hl ' + (lastCls || '') }, grp);
      }
      if (kind) {
        var pc = el('g', { 'class': 'pc ' + kind, transform: 'translate(0.5,0.5)' }, grp);
        el('circle', { r: 0.4, 'class': 'p1' }, pc);
        el('circle', { r: 0.27, 'class': 'p2' }, pc);
        if (kind.charAt(1) === 'k') el('path', { d: 'M-.19 .1l-.04-.23.12.1.11-.17.11.17.12-.1-.04.23z', 'class': 'p3' }, pc);
      }
    }
    var layer = v.arrows;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    if (hook('arrows', v, layer)) return;
    var line = v.g.lines[v.k], best = line && line[0];
    var next = v.g.plies[v.k], nextCls = v.moves[v.k] && v.moves[v.k].cls;
    // Best move first and wide, the move played (when it is flagged) narrower on top of it:
    // both stay visible when they share a diagonal.
    if (best) arrow(layer, v, best.path, COLOR.best, 0.2);
    if (next && nextCls && JUDGEMENT[nextCls] && !sameMove(best, next)) {
      arrow(layer, v, next.path, COLOR[nextCls], 0.1);
    }
  }

  function drawGraph(v) {
    var g = v.g, n = g.plies.length, W = 600, H = 110;
    var svg = el('svg', { 'class': 'vg', viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'White\u2019s winning chances; click to go to a move' });
    v.graph = svg;
    if (!g.scores.length || !n) return svg;
    var x = function (k) { return k * W / n; }, y = function (p) { return (1 - p / 100) * H; };
    el('rect', { width: W, height: H, 'class': 'gbg' }, svg);
    var pts = ['0,' + H];
    v.curve = [];
    for (var k = 0; k !== n + 1; k++) {
      var p = winPercent(k ? afterScore(g, k) : g.scores[0]);
      v.curve.push(p);
      pts.push(x(k).toFixed(1) + ',' + y(p).toFixed(1));
    }
    pts.push(W + ',' + H);
    el('polygon', { points: pts.join(' '), 'class': 'garea' }, svg);
    el('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, 'class': 'gmid' }, svg);
    v.marker = el('line', { x1: 0, x2: 0, y1: 0, y2: H, 'class': 'gcur' }, svg);
    v.moves.forEach(function (m, i) {
      if (m.cls && JUDGEMENT[m.cls] && i < n) {
        el('circle', { cx: x(i + 1), cy: y(v.curve[i + 1]), r: 5, fill: COLOR[m.cls], 'class': 'gdot' }, svg);
      }
    });
    svg.addEventListener('click', function (e) {
      var box = svg.getBoundingClientRect();
      v.go(Math.round((e.clientX - box.left) / box.width * n), true);
    });
    return svg;
  }

  // ---- the move list ----------------------------------------------------------------------
  // The static list (html/game.rs, moves_markup): move numbers and moves as text, one pair per
  // line; flagged moves as <i class="jb|jm|ji">, moves that could not be replayed as
  // <span class="bad">; comments (span.c) and variations (span.v) between them. Each move
  // becomes a clickable span; comments and variations are kept with the move before them.
  function enhanceMoves(v, p) {
    var moves = [], leading = [];
    function add(span, cls) {
      span.classList.add('mv');
      moves.push({ el: span, cls: cls, notes: [] });
    }
    Array.prototype.slice.call(p.childNodes).forEach(function (child) {
      if (child.nodeType === 3) {
        var frag = document.createDocumentFragment();
        child.textContent.split(/(\s+)/).forEach(function (tok) {
          if (!tok) return;
          if (/^\s/.test(tok) || tok.charAt(0) === '$') {
            frag.appendChild(document.createTextNode(tok));
          } else if (/^\d+\.+$/.test(tok)) {
            frag.appendChild(html('span', 'num', null, tok));
          } else {
            var span = html('span', '', frag, tok);
            add(span, '');
          }
        });
        p.replaceChild(frag, child);
      } else if (child.nodeType === 1) {
        var cls = child.className.split(' ')[0];
        if (JUDGEMENT[cls] || cls === 'bad') add(child, cls);
        else if (cls === 'c' || cls === 'v') {
          (moves.length ? moves[moves.length - 1].notes : leading).push(child.textContent);
        }
      }
    });
    moves.forEach(function (m, i) {
      if (i < v.g.plies.length) {
        m.el.setAttribute('data-k', i + 1);
        m.el.addEventListener('click', function () { v.go(i + 1, true); });
      }
    });
    v.leading = leading;
    return moves;
  }

  // ---- the panel --------------------------------------------------------------------------
  function info(v) {
    var g = v.g, k = v.k, box = v.info;
    box.textContent = '';
    v.count.textContent = k + ' / ' + g.plies.length;
    if (hook('panel', v, box)) return;
    var head = html('div', 'vh', box);
    if (k === 0) {
      head.textContent = 'Start: ' + (g.turn === 'w' ? 'White' : 'Black') + ' to move';
      v.leading.forEach(function (t) { html('div', 'vnote', box, t); });
    } else {
      var m = v.moves[k - 1] || { el: { textContent: '' }, cls: '', notes: [] };
      html('b', '', head, moveNumber(g, k) + ' ');
      html('span', 'vmv', head, m.el.textContent);
      if (JUDGEMENT[m.cls]) {
        html('span', 'tag ' + m.cls, head, JUDGEMENT[m.cls]);
        // The title is `win% 80→20`, with ` · reason` for a proven result.
        var why = (m.el.title || '').split(' \u00b7 ')[1];
        if (why) html('span', 'vwhy', head, ' (' + why + ')');
      }
      if (g.scores.length) {
        var white = whiteMoves(g, k), before = g.scores[k - 1], after = afterScore(g, k);
        var wb = winPercent(before), wa = winPercent(after);
        var side = white ? 'White' : 'Black';
        var mine = function (p) { return Math.round(white ? p : 100 - p); };
        html('div', 'vev', box, side + '\u2019s winning chances ' + mine(wb) + '% \u2192 ' + mine(wa) +
          '% \u00b7 eval ' + scoreText(before) + ' \u2192 ' + scoreText(after));
        var bestWas = g.lines[k - 1] && g.lines[k - 1][0];
        if (bestWas && !sameMove(bestWas, g.plies[k - 1])) {
          var bw = html('div', 'vbw', box, 'Best was ');
          var link = html('a', 'best', bw, moveText(g, bestWas));
          link.href = '#' + v.id + '-p' + (k - 1);
          link.addEventListener('click', function (e) { e.preventDefault(); v.go(k - 1, true); });
          html('span', 'pv', bw, ' \u2014 ' + lineText(g, g.lines[k - 1], k - 1));
        }
      }
      m.notes.forEach(function (t) { html('div', 'vnote', box, t); });
    }
    var line = g.lines[k];
    if (hook('compare', v, box)) line = null;
    // The next move, when it is flagged: it is on the board as an arrow in its colour.
    var next = v.moves[k], nextBest = line && line[0];
    if (line && next && JUDGEMENT[next.cls] && g.plies[k] && !sameMove(nextBest, g.plies[k])) {
      var nx = html('div', 'vnext', box, 'Next ');
      var nm = html('a', 'tag ' + next.cls, nx, moveNumber(g, k + 1) + ' ' + next.el.textContent);
      nm.href = '#' + v.id + '-p' + (k + 1);
      nm.addEventListener('click', function (e) { e.preventDefault(); v.go(k + 1, true); });
      html('span', '', nx, ' ' + JUDGEMENT[next.cls].toLowerCase() + ' (its arrow); the engine plays ');
      html('b', 'best', nx, moveText(g, nextBest));
      html('span', '', nx, ' (green)');
    }
    if (g.scores.length && g.scores[k]) {
      var eng = html('div', 'veng', box);
      html('b', '', eng, 'Engine ' + scoreText(g.scores[k]));
      if (g.lines[k] && g.lines[k].length) html('span', 'pv', eng, ' \u00b7 ' + lineText(g, g.lines[k], k));
    }
    hook('info', v, box);
  }

  // ---- a viewer ---------------------------------------------------------------------------
  function build(article) {
    if (article.viewer) return article.viewer;
    var g = decode(article.getAttribute('data-v'));
    var v = { id: article.id, g: g, k: 0, flipped: false, article: article };
    article.viewer = v;
    var moves = article.querySelector('p.moves');
    v.moves = moves ? enhanceMoves(v, moves) : [];
    var wrap = html('div', 'vw');
    var left = html('div', 'vl', wrap);
    v.svg = el('svg', { 'class': 'vb', viewBox: '0 0 8 8', role: 'img', 'aria-label': 'board' }, left);
    var panel = html('div', 'vp', wrap);
    var controls = html('div', 'vc', left);
    [['\u00ab', 'first', 'Start (Home)'], ['\u2039', 'prev', 'Back (\u2190)'], ['', 'count', ''],
     ['\u203a', 'next', 'Forward (\u2192)'], ['\u00bb', 'last', 'End (End)'], ['\u21c5', 'flip', 'Flip the board']]
      .forEach(function (b) {
        if (b[1] === 'count') { v.count = html('span', 'vn', controls); return; }
        var button = html('button', '', controls, b[0]);
        button.type = 'button';
        button.title = b[2];
        button.setAttribute('aria-label', b[2]);
        button.setAttribute('data-a', b[1]);
        button.addEventListener('click', function () { act(v, b[1]); });
      });
    v.info = html('div', 'vi', panel);
    panel.appendChild(drawGraph(v));
    if (moves) panel.appendChild(moves);
    var anchor = article.querySelector('p.sides') || article.querySelector('p.meta');
    anchor.parentNode.insertBefore(wrap, anchor.nextSibling);
    article.classList.add('on');
    wrap.addEventListener('pointerdown', function () { active = v; });
    var touch = null;
    v.svg.addEventListener('touchstart', function (e) { touch = e.touches[0].clientX; }, { passive: true });
    v.svg.addEventListener('touchend', function (e) {
      if (touch === null) return;
      var dx = e.changedTouches[0].clientX - touch;
      touch = null;
      if (Math.abs(dx) > 40) v.go(v.k + (dx > 0 ? -1 : 1), true);
    });
    v.go = function (k, user) { go(v, k, user); };
    drawBoard(v);
    hook('built', v);
    go(v, 0, false);
    viewers.push(v);
    return v;
  }

  function act(v, action) {
    active = v;
    if (hook('act', v, action)) return;
    if (action === 'first') v.go(0, true);
    else if (action === 'prev') v.go(v.k - 1, true);
    else if (action === 'next') v.go(v.k + 1, true);
    else if (action === 'last') v.go(v.g.plies.length, true);
    else if (action === 'flip') { v.flipped = !v.flipped; drawBoard(v); go(v, v.k, false); }
  }

  function go(v, k, user) {
    k = Math.max(0, Math.min(v.g.plies.length, k));
    // Going to a ply of the game leaves a what-if line.
    if (user) hook('leave', v);
    if (v.cur) v.cur.classList.remove('cur');
    v.k = k;
    v.cur = k ? v.moves[k - 1] && v.moves[k - 1].el : null;
    if (v.cur) {
      v.cur.classList.add('cur');
      var list = v.cur.parentNode;
      if (list && list.scrollHeight > list.clientHeight) {
        var top = v.cur.offsetTop;
        if (top < list.scrollTop || list.scrollTop + list.clientHeight < top + v.cur.offsetHeight) {
          list.scrollTop = top - list.clientHeight / 2;
        }
      }
    }
    drawPieces(v);
    info(v);
    if (v.marker) {
      var xk = (k * 600 / Math.max(1, v.g.plies.length)).toFixed(1);
      v.marker.setAttribute('x1', xk);
      v.marker.setAttribute('x2', xk);
    }
    v.article.setAttribute('data-ply', k);
    if (user) {
      active = v;
      if (history.replaceState) history.replaceState(null, '', '#' + v.id + '-p' + k);
    }
    hook('shown', v);
  }

  function visible(v) {
    var r = v.article.getBoundingClientRect();
    return r.top < window.innerHeight && r.bottom > 0;
  }

  function current() {
    if (active && visible(active)) return active;
    for (var i = 0; i !== viewers.length; i++) if (visible(viewers[i])) return viewers[i];
    return active;
  }

  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
    var action = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last', f: 'flip' }[e.key];
    if (!action) return;
    var v = current();
    if (!v) return;
    e.preventDefault();
    act(v, action);
  });

  // Scrolls to the top of `article` until it stays there: the games around it take their
  // real size only when they are drawn (content-visibility), and gain a board when built.
  function settle(article, frames) {
    article.scrollIntoView({ block: 'start' });
    var top = article.getBoundingClientRect().top;
    if (frames && Math.abs(top) > 1) requestAnimationFrame(function () { settle(article, frames - 1); });
    else if (frames) requestAnimationFrame(function () {
      if (Math.abs(article.getBoundingClientRect().top) > 1) settle(article, frames - 1);
    });
  }

  // #g1-17-p23: game g1-17 at ply 23 (the board after 23 plies).
  function follow() {
    var m = /^#(g\d+-\d+)(?:-p(\d+))?$/.exec(location.hash);
    if (!m) return;
    var article = document.getElementById(m[1]);
    if (!article || !article.hasAttribute('data-v')) return;
    var v = build(article);
    active = v;
    if (m[2] !== undefined) {
      go(v, +m[2], false);
      settle(article, 12);
    }
  }

  // A blunder's move carries the address of its board as its id (g1-17-p23), so that the
  // link lands near it without this script. With the script the viewer places the board; the
  // browser's own scroll to the fragment, which can run after this script (at load), must not
  // find the move instead and carry the board off screen.
  Array.prototype.forEach.call(document.querySelectorAll('p.moves [id]'), function (chip) {
    chip.removeAttribute('id');
  });

  DRAFTI.view = {
    board: board, build: build, go: go, drawBoard: drawBoard, drawPieces: drawPieces, info: info,
    el: el, html: html, arrow: arrow, moveNumber: moveNumber, moveText: moveText,
    lineText: lineText, scoreText: scoreText, winPercent: winPercent, whiteMoves: whiteMoves,
    sameMove: sameMove, decode: decode, COLOR: COLOR, JUDGEMENT: JUDGEMENT, viewers: viewers
  };
  var articles = document.querySelectorAll('article[data-v]');
  if ('IntersectionObserver' in window) {
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) { seen.unobserve(e.target); build(e.target); }
      });
    }, { rootMargin: '400px 0px' });
    Array.prototype.forEach.call(articles, function (a) { seen.observe(a); });
  } else {
    Array.prototype.forEach.call(articles, build);
  }
  window.addEventListener('hashchange', follow);
  follow();
  // The page's images and fonts can still move the games once it has loaded.
  window.addEventListener('load', function () {
    if (active && /-p\d+$/.test(location.hash)) settle(active.article, 12);
  });
  // The way back to the index of games (a.up, fixed in a corner) shows once the reader is
  // among the games: over the summary it would cover the cells of its tables (on a phone
  // they span the screen), and the index it leads to is at hand there.
  var up = document.querySelector('a.up'), firstGame = document.querySelector('article.game');
  if (up) {
    var placeUp = function () {
      var among = firstGame && firstGame.getBoundingClientRect().top < up.getBoundingClientRect().top;
      up.classList.toggle('off', !among);
    };
    var upQueued = false;
    var queueUp = function () {
      if (upQueued) return;
      upQueued = true;
      requestAnimationFrame(function () { upQueued = false; placeUp(); });
    };
    window.addEventListener('scroll', queueUp, { passive: true });
    window.addEventListener('resize', queueUp);
    placeUp();
  }
  document.documentElement.classList.add('js');
})();
