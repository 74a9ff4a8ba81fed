// The analysis board of drafti's HTML report: moves of your own on any board ("what if"),
// drafti's engine in the page (its WebAssembly module, embedded in the page, in a Web
// Worker), an evaluation bar, the game's move and the engine's side by side at a flagged
// move, and the archive's explorer. It runs before viewer.js and hooks into every viewer
// (DRAFTI.hooks); the rules are the module's: this script only matches clicks to the legal
// moves it is given. Without WebAssembly the viewer works as before.
// Inline in a CDATA section: never the three characters that end one, nor a closing tag.
(function () {
  'use strict';
  const hooks = DRAFTI.hooks = DRAFTI.hooks || [];
  const V = () => DRAFTI.view;
  // How long the engine thinks about a position (ms): "within about a second".
  const THINK_MS = 1000;
  // The explorer covers the games' first plies.
  const EXPLORER_PLIES = DRAFTI.explorerPlies || 20;

  // ---- the engine ------------------------------------------------------------------------
  // The rules answer in this thread (legal moves and moves played take microseconds); the
  // searches run in a worker, so the page never waits for them.
  let rules = null;
  let engine = null;
  let compiled = null;
  let starting = null;

  // The embedded module (base64 of its raw DEFLATE), compiled once, and the rules in this thread.
  function rulesReady() {
    if (compiled) return compiled;
    // The module's data comes after the scripts in the page: wait until it is parsed.
    const parsed = document.readyState === 'loading'
      ? new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }))
      : Promise.resolve();
    compiled = parsed.then(async () => {
      const blob = document.getElementById('drafti-wasm');
      if (!blob || typeof WebAssembly !== 'object' || typeof DecompressionStream !== 'function'
          || !window.Drafti) {
        throw new Error('this browser cannot run the engine');
      }
      const bytes = Uint8Array.from(atob(blob.textContent.trim()), (c) => c.charCodeAt(0));
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
      const module = await Drafti.compile(await new Response(stream).arrayBuffer());
      rules = await Drafti.load(module);
      return module;
    });
    compiled.catch(() => {});
    return compiled;
  }

  // The engine in a worker, once.
  function engineReady() {
    if (!starting) {
      starting = rulesReady().then((module) => {
        if (typeof Worker !== 'function') throw new Error('this browser has no Web Worker');
        return Drafti.Engine.start(module);
      }).then((e) => (engine = e));
      starting.catch(() => {});
    }
    return starting;
  }

  // ---- positions as the module reads them ------------------------------------------------
  function startFen(g) {
    const w = [], b = [];
    g.start.forEach((p, i) => {
      const name = (p === 'W' || p === 'B' ? 'K' : '') + (i + 1);
      if (p === 'w' || p === 'W') w.push(name);
      if (p === 'b' || p === 'B') b.push(name);
    });
    return (g.turn === 'w' ? 'W' : 'B') + ':W' + w.join(',') + ':B' + b.join(',');
  }

  // A move of the viewer's data (square indices) as the module reads it: its whole path.
  const pathText = (mv) => mv.path.map((sq) => sq + 1).join(mv.capture ? 'x' : '-');
  // A move of the module's answers by its whole path.
  const answerText = (m) => m.path.join(m.captures.length ? 'x' : '-');

  function request(v) {
    const g = v.g, a = v.alt;
    const moves = g.plies.slice(0, a ? a.k : v.k).map(pathText);
    return {
      variant: g.variant, fen: startFen(g), notation: g.numeric ? 'numeric' : 'algebraic',
      moves: a ? moves.concat(a.moves.slice(0, a.i)) : moves,
    };
  }

  const keyOf = (req) => req.variant + ' ' + req.fen + ' ' + req.moves.join(' ');
  const states = new Map();

  // The module's answer about the position a viewer shows (legal moves, outcome), cached.
  function shownState(v) {
    const req = request(v), key = keyOf(req);
    if (!states.has(key)) {
      states.set(key, rulesReady().then(() => rules.position(req)));
      states.get(key).catch(() => states.delete(key));
    }
    return states.get(key);
  }

  // ---- what-if moves ---------------------------------------------------------------------
  // v.alt: {k: the game's ply it starts from, moves: [path text], states: [answer after
  // each], i: how many of them are shown, board, last}; v.sel: the squares clicked so far.
  function showAlt(v) {
    const a = v.alt;
    if (a) {
      const st = a.i ? a.states[a.i - 1] : null;
      a.board = st ? st.board.split('') : V().board(v.g, a.k);
      const played = st && st.played;
      a.last = played ? { path: played.path.map((n) => n - 1) } : null;
    }
    v.sel = [];
    V().go(v, v.k, false);
    think(v);
  }

  async function click(v, sq) {
    let st;
    try {
      st = await shownState(v);
    } catch (e) {
      return notice(v, 'The engine is not available here: ' + e.message + '.');
    }
    if (st.outcome) return notice(v, st.outcome.text + '.');
    const r = pick(st.moves, v.sel || [], sq);
    if (r.move) return play(v, answerText(r.move));
    v.sel = r.sel;
    marks(v, st.moves);
  }

  // A click on square `sq` (1-32) after the squares `sel`, among the legal `moves`: the move
  // it completes (its squares in order: the start, then each landing square, or the start and
  // the end when no other move goes there), else the squares selected now.
  function pick(moves, sel, sq) {
    const next = sel.concat(sq);
    const prefix = moves.filter((m) => next.every((s, i) => m.path[i] === s));
    const whole = prefix.filter((m) => m.path.length === next.length);
    const direct = sel.length === 1 ? moves.filter((m) => m.from === sel[0] && m.to === sq) : [];
    if (whole.length === 1) return { move: whole[0] };
    if (!prefix.length && direct.length === 1) return { move: direct[0] };
    if (prefix.length && sel.length) return { sel: next };
    return { sel: moves.some((m) => m.from === sq) ? [sq] : [] };
  }

  // The squares clicked, and where the piece can go next.
  function marks(v, moves) {
    V().drawPieces(v);
    const sel = v.sel || [];
    if (!sel.length) return;
    const next = new Set();
    moves.forEach((m) => {
      if (sel.every((s, i) => m.path[i] === s)) {
        next.add(m.path[sel.length]);
        if (sel.length === 1) next.add(m.to);
      }
    });
    sel.forEach((n) => V().el('rect', { width: 1, height: 1, 'class': 'sel' }, v.squares[n - 1]));
    next.forEach((n) => {
      if (n) V().el('circle', { cx: 0.5, cy: 0.5, r: 0.14, 'class': 'dest' }, v.squares[n - 1]);
    });
  }

  async function play(v, text) {
    const req = Object.assign(request(v), { move: text });
    let st;
    try {
      await rulesReady();
      st = rules.play(req);
    } catch (e) {
      return notice(v, e.message);
    }
    states.set(keyOf(Object.assign({}, req, { moves: req.moves.concat(text) })), Promise.resolve(st));
    if (!v.alt) v.alt = { k: v.k, moves: [], states: [], i: 0 };
    const a = v.alt;
    a.moves.length = a.i;
    a.states.length = a.i;
    a.moves.push(text);
    a.states.push(st);
    a.i += 1;
    showAlt(v);
  }

  function leave(v) {
    if (!v.alt) return false;
    v.alt = null;
    v.sel = [];
    return false;
  }

  function notice(v, text) {
    v.sel = [];
    V().drawPieces(v);
    let box = v.info.querySelector('.wnote');
    if (!box) box = V().html('div', 'wnote', v.info);
    box.textContent = text;
  }

  // ---- the engine's analysis -------------------------------------------------------------
  // v.live: {key, info, done} for the position shown; v.engineOn: analyse every position.
  let running = null;

  function think(v) {
    if (!(v.alt || v.engineOn)) return;
    const req = request(v), key = keyOf(req);
    if (v.live && v.live.key === key) return;
    v.live = { key, info: null, done: false };
    if (running && running !== key) engine && engine.stop();
    running = key;
    engineReady().then((e) => e.search(Object.assign({ movetime: THINK_MS }, req), (info) => {
      if (v.live && v.live.key === key) { v.live.info = info; liveShown(v); }
    })).then((result) => {
      if (running === key) running = null;
      if (v.live && v.live.key === key && !result.stopped) {
        v.live.info = result;
        v.live.done = true;
        liveShown(v);
      }
    }, (e) => {
      if (running === key) running = null;
      if (v.live && v.live.key === key && e.message !== 'stopped') {
        v.live.error = e.message;
        liveShown(v);
      }
    });
  }

  // Redraws what the engine's progress changes: the arrow, the bar, the engine's line.
  function liveShown(v) {
    if (!v.live || v.live.key !== keyOf(request(v))) return;
    V().drawPieces(v);
    if (v.sel && v.sel.length) shownState(v).then((st) => marks(v, st.moves));
    bar(v);
    const box = v.info.querySelector('.weng');
    if (box) engineLine(v, box);
  }

  function scoreOf(info) {
    // The score's one JSON form: exactly one of cp, win_in and loss_in, from the side to move.
    const s = info.score, won = s.win_in !== null && s.win_in !== undefined;
    if (won || (s.loss_in !== null && s.loss_in !== undefined)) {
      const mover = won ? info.turn : info.turn === 'white' ? 'black' : 'white';
      return (mover === 'white' ? 'White' : 'Black') + ' wins in ' + (won ? s.win_in : s.loss_in);
    }
    const white = info.turn === 'white' ? s.cp : -s.cp;
    return V().scoreText({ cm: white });
  }

  const pct = (wc) => Math.round(50 + 50 * wc);

  function engineLine(v, box) {
    box.textContent = '';
    const live = v.live;
    const h = V().html;
    if (!live) return;
    if (live.error) { h('span', '', box, 'Engine: ' + live.error); return; }
    const info = live.info;
    if (!info) { h('span', 'wthink', box, 'Engine: thinking\u2026'); return; }
    if (info.outcome) { h('b', '', box, info.outcome.text); return; }
    h('b', '', box, 'Engine ' + scoreOf(info));
    h('span', 'wwc', box, ' \u00b7 White ' + pct(info.white_wc) + '%');
    h('span', 'wdepth', box, ' \u00b7 depth ' + info.depth + (live.done ? '' : '\u2026'));
    const line = h('div', 'pv wpv', box);
    info.pv.forEach((m, j) => {
      const a = h('a', j ? '' : 'best', line, m.notation);
      a.href = '#';
      a.title = 'play the line up to here';
      a.addEventListener('click', (e) => {
        e.preventDefault();
        playLine(v, info.pv.slice(0, j + 1).map(answerText));
      });
      line.appendChild(document.createTextNode(' '));
    });
  }

  async function playLine(v, texts) {
    for (const t of texts) await play(v, t);
  }

  // The evaluation bar: White's winning chances in the position shown, the engine's when it
  // has searched it, else the report's own analysis of the game's position.
  function bar(v) {
    if (!v.bar) return;
    let white = null;
    if (v.live && v.live.info && v.live.key === keyOf(request(v))) {
      white = v.live.info.outcome ? null : 50 + 50 * v.live.info.white_wc;
    } else if (!v.alt && v.g.scores.length) {
      white = V().winPercent(v.g.scores[v.k]);
    }
    v.bar.hidden = white === null;
    if (white === null) return;
    v.bar.firstChild.style.height = (100 - white).toFixed(1) + '%';
    v.bar.title = 'White\u2019s winning chances ' + Math.round(white) + '%';
    v.bar.setAttribute('data-white', Math.round(white));
  }

  // ---- the panel ---------------------------------------------------------------------------
  function altPanel(v, box) {
    const h = V().html, a = v.alt, g = v.g;
    const head = h('div', 'vh wif', box);
    h('b', '', head, 'What if');
    h('span', '', head, ' \u2014 from ' + (a.k ? V().moveNumber(g, a.k) + ' ' + plyText(v, a.k) : 'the start') + ': ');
    const line = h('span', 'wline', head);
    a.states.forEach((st, j) => {
      const ply = a.k + j + 1;
      const white = V().whiteMoves(g, ply);
      if (j === 0 || white) h('span', 'num', line, V().moveNumber(g, ply) + ' ');
      const m = h('a', j + 1 === a.i ? 'mv cur' : 'mv', line, st.played.notation);
      m.href = '#';
      m.addEventListener('click', (e) => { e.preventDefault(); a.i = j + 1; showAlt(v); });
      line.appendChild(document.createTextNode(' '));
    });
    const tools = h('div', 'wtools', box);
    const back = h('button', '', tools, '\u2039 Take back');
    back.type = 'button';
    back.addEventListener('click', () => step(v, -1));
    const ret = h('button', 'wret', tools, '\u21a9 Back to the game');
    ret.type = 'button';
    ret.addEventListener('click', () => { leave(v); V().go(v, v.k, true); });
    const st = a.i ? a.states[a.i - 1] : null;
    if (st && st.outcome) h('div', 'wout', box, st.outcome.text);
    else if (st && st.king_count !== null) h('div', 'wout', box, 'Law 2: the lone king has made ' + st.king_count + ' moves.');
    engineLine(v, h('div', 'veng weng', box));
    explorer(v, box);
    v.count.textContent = 'what if ' + a.i + ' / ' + a.moves.length;
    return true;
  }

  function plyText(v, k) {
    const m = v.moves[k - 1];
    return m ? m.el.textContent : V().moveText(v.g, v.g.plies[k - 1]);
  }

  function step(v, d) {
    const a = v.alt;
    if (!a) return false;
    if (a.i + d < 0) return true;
    if (a.i + d > a.moves.length) return true;
    a.i += d;
    if (a.i === 0 && d < 0) { leave(v); V().go(v, v.k, false); return true; }
    showAlt(v);
    return true;
  }

  // At a flagged move: the game's move and the engine's choice side by side, each playable.
  function compare(v, box) {
    const g = v.g, k = v.k, next = v.moves[k], line = g.lines[k];
    const J = V().JUDGEMENT;
    if (!next || !J[next.cls] || !g.plies[k] || !line || !line[0] || V().sameMove(line[0], g.plies[k])) return false;
    const h = V().html;
    const wrap = h('div', 'wcmp', box);
    const side = (cls, title, mv, score, text) => {
      const col = h('div', 'wcol ' + cls, wrap);
      h('div', 'wct', col, title);
      const b = h('button', 'tag ' + cls, col, V().moveNumber(g, k + 1) + ' ' + text);
      b.type = 'button';
      b.title = 'play it on the board';
      b.addEventListener('click', () => play(v, pathText(mv)));
      if (score !== null) h('div', 'wcs', col, 'White ' + Math.round(score) + '%');
      return col;
    };
    const after = g.after[k + 1] || g.scores[k + 1];
    side(next.cls, 'Played (' + J[next.cls].toLowerCase() + ')', g.plies[k], V().winPercent(after), next.el.textContent);
    side('best', 'Engine', line[0], V().winPercent(g.scores[k]), V().moveText(g, line[0]));
    return true;
  }

  function gamePanel(v, box) {
    const h = V().html;
    const tools = h('div', 'wtools', box);
    const b = h('button', v.engineOn ? 'on' : '', tools, v.engineOn ? 'Engine on' : 'Ask the engine');
    b.type = 'button';
    b.title = 'drafti\u2019s engine in this page analyses the position shown';
    b.addEventListener('click', () => {
      v.engineOn = !v.engineOn;
      if (!v.engineOn && engine) { engine.stop(); v.live = null; }
      V().go(v, v.k, false);
    });
    h('span', 'note', tools, ' or move a piece to try your own move');
    if (v.engineOn) engineLine(v, h('div', 'veng weng', box));
    explorer(v, box);
  }

  // ---- the explorer ------------------------------------------------------------------------
  // Every game of the page within its first plies, by position (board and side to move), so
  // that transpositions join: position -> move -> games.
  let tree = null;

  function explorerTree() {
    if (tree) return tree;
    tree = new Map();
    const view = V();
    document.querySelectorAll('article[data-v]').forEach((article) => {
      const g = view.decode(article.getAttribute('data-v'));
      const result = (article.querySelector('h3 b') || {}).textContent || '*';
      const n = Math.min(EXPLORER_PLIES, g.plies.length);
      for (let k = 0; k < n; k++) {
        const key = view.board(g, k).join('') + (view.whiteMoves(g, k + 1) ? 'w' : 'b');
        let moves = tree.get(key);
        if (!moves) tree.set(key, moves = new Map());
        const mv = g.plies[k], id = mv.path.join('.');
        let row = moves.get(id);
        if (!row) moves.set(id, row = { mv, g, games: [], w: 0, d: 0, l: 0 });
        row.games.push({ id: article.id, ply: k, result });
        if (result === '1-0' || result === '2-0') row.w++;
        else if (result === '0-1' || result === '0-2') row.l++;
        else if (result !== '*') row.d++;
      }
    });
    return tree;
  }

  function explorer(v, box) {
    const a = v.alt, g = v.g;
    const ply = a ? a.k + a.i : v.k;
    if (ply >= EXPLORER_PLIES) return;
    const b = a ? a.board : V().board(g, v.k);
    const key = b.join('') + (V().whiteMoves(g, ply + 1) ? 'w' : 'b');
    const moves = explorerTree().get(key);
    const h = V().html;
    const panel = h('details', 'wex', box);
    const rows = moves ? Array.from(moves.values()).sort((x, y) => y.games.length - x.games.length) : [];
    const total = rows.reduce((s, r) => s + r.games.length, 0);
    h('summary', '', panel, 'Explorer: ' + (total === 1 ? '1 game' : total + ' games') + ' of this report reached this position');
    // The table is made when the panel is open: a closed one costs nothing at each step, and
    // holds no cells for the browser to lay out under the page's fixed "games" button.
    panel.addEventListener('toggle', () => {
      v.exOpen = panel.open;
      if (panel.open) explorerTable(panel, rows);
    });
    panel.open = !!v.exOpen;
  }

  function explorerTable(panel, rows) {
    const h = V().html;
    if (!rows.length || panel.querySelector('table')) return;
    const table = h('table', 'wext', panel);
    const head = h('tr', '', table);
    ['move', 'games', 'White wins', 'draws', 'Black wins'].forEach((t) => h('th', '', head, t));
    rows.forEach((r) => {
      const tr = h('tr', '', table);
      const td = h('td', '', tr);
      const m = h('a', 'mv', td, V().moveText(r.g, r.mv));
      m.href = '#';
      m.title = 'the games that played it';
      h('td', 'r', tr, String(r.games.length));
      h('td', 'r', tr, String(r.w));
      h('td', 'r', tr, String(r.d));
      h('td', 'r', tr, String(r.l));
      m.addEventListener('click', (e) => {
        e.preventDefault();
        const open = tr.nextSibling && tr.nextSibling.classList.contains('wgames');
        table.querySelectorAll('tr.wgames').forEach((x) => x.remove());
        if (open) return;
        const list = document.createElement('tr');
        list.className = 'wgames';
        table.insertBefore(list, tr.nextSibling);
        const cell = h('td', '', list);
        cell.colSpan = 5;
        r.games.forEach((game) => {
          const title = document.querySelector('#' + game.id + ' h3');
          const link = h('a', 'wgame', cell, title ? title.textContent : game.id);
          link.href = '#' + game.id + '-p' + (game.ply + 1);
          cell.appendChild(document.createTextNode(' '));
        });
      });
    });
  }

  // ---- the index's filters -----------------------------------------------------------------
  // The index of games (table.ix: game, White, Black, result, ??, ?, plies; each row's
  // opening in data-o) filtered by player, opening, result and "has a blunder".
  function filters() {
    const table = document.querySelector('table.ix');
    if (!table) return;
    const rows = Array.from(table.querySelectorAll('tr')).slice(1);
    const h = (tag, cls, parent, text) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      if (parent) parent.appendChild(e);
      return e;
    };
    const bar = h('div', 'wfilter');
    const box = table.parentNode;
    box.parentNode.insertBefore(bar, box);
    const player = h('input', '', bar);
    player.type = 'search';
    player.placeholder = 'player';
    player.setAttribute('aria-label', 'player');
    const select = (label, values) => {
      const s = h('select', '', bar);
      s.setAttribute('aria-label', label);
      h('option', '', s, 'any ' + label).value = '';
      values.forEach((v) => { h('option', '', s, v).value = v; });
      return s;
    };
    const openings = Array.from(new Set(rows.map((r) => r.getAttribute('data-o')).filter(Boolean))).sort();
    const opening = openings.length ? select('opening', openings) : null;
    const results = Array.from(new Set(rows.map((r) => r.cells[3].textContent))).sort();
    const result = select('result', results);
    const label = h('label', '', bar);
    const blunder = h('input', '', label);
    blunder.type = 'checkbox';
    label.appendChild(document.createTextNode(' has a blunder'));
    const count = h('span', 'note', bar);
    const apply = () => {
      const who = player.value.trim().toLowerCase();
      let shown = 0;
      rows.forEach((r) => {
        const c = r.cells;
        const ok = (!who || (c[1].textContent + ' ' + c[2].textContent).toLowerCase().includes(who))
          && (!opening || !opening.value || r.getAttribute('data-o') === opening.value)
          && (!result.value || c[3].textContent === result.value)
          && (!blunder.checked || +c[4].textContent > 0);
        r.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = shown + ' of ' + rows.length + ' games';
    };
    [player, opening, result, blunder].forEach((e) => e && e.addEventListener('input', apply));
    [opening, result, blunder].forEach((e) => e && e.addEventListener('change', apply));
    apply();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', filters);
  else filters();

  // What the puzzles (puzzles.js) use: the module, how a click picks a move, the marks.
  DRAFTI.play = {
    rules: () => rulesReady().then(() => rules), pick, marks, answerText,
    click(v, handler) {
      v.svg.addEventListener('click', (e) => {
        const sq = e.target.closest && e.target.closest('[data-sq]');
        const i = sq ? v.squares.indexOf(sq) : -1;
        if (i >= 0) handler(i + 1);
      });
    },
  };

  // ---- the hooks ---------------------------------------------------------------------------
  hooks.push({
    built(v) {
      v.sel = [];
      // The evaluation bar beside the board, in a frame that holds both.
      const frame = document.createElement('div');
      frame.className = 'wframe';
      v.svg.parentNode.insertBefore(frame, v.svg);
      frame.appendChild(v.svg);
      v.bar = V().html('div', 'webar', frame);
      v.bar.hidden = true;
      V().html('div', 'webk', v.bar);
      DRAFTI.play.click(v, (sq) => click(v, sq));
      return false;
    },
    panel(v, box) { return v.alt ? altPanel(v, box) : false; },
    compare(v, box) { return compare(v, box); },
    info(v, box) { if (!v.alt) gamePanel(v, box); return false; },
    arrows(v, layer) {
      const live = v.live;
      const best = live && live.info && live.info.pv && live.info.pv[0];
      if (best && live.key === keyOf(request(v))) {
        V().arrow(layer, v, best.path.map((n) => n - 1), '#1f6fb2', 0.16);
        return !!v.alt;
      }
      return !!v.alt;
    },
    leave(v) { return leave(v); },
    shown(v) {
      if (!v.alt && v.live && v.live.key !== keyOf(request(v))) v.live = null;
      bar(v);
      think(v);
      return false;
    },
    act(v, action) {
      if (!v.alt) return false;
      if (action === 'prev') return step(v, -1);
      if (action === 'next') return step(v, 1);
      if (action === 'first') { leave(v); V().go(v, v.k, true); return true; }
      if (action === 'last') { v.alt.i = v.alt.moves.length; showAlt(v); return true; }
      return false;
    },
  });
})();
