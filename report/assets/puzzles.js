// Puzzles to solve in the page (drafti puzzles --html): every puzzle's board takes the
// solver's moves by clicks, checks each against the rules (the embedded module's legal
// moves) and the stored solution, plays the opponent's replies, gives a hint or the solution
// on request, and keeps the player's progress in the page's storage. Without script (or
// WebAssembly) the page shows its static diagrams and the solutions under "Solution".
// Runs after board.js (DRAFTI.play) and viewer.js (DRAFTI.view, the board's drawing).
// Inline in a CDATA section: never the three characters that end one, nor a closing tag.
(function () {
  'use strict';
  const V = DRAFTI.view, P = DRAFTI.play;
  const STORE = 'drafti-puzzles';
  const REPLY_MS = 450;

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || '{}'); } catch (e) { return {}; }
  }
  function save(progress) {
    try { localStorage.setItem(STORE, JSON.stringify(progress)); } catch (e) { /* no storage */ }
  }
  const progress = load();
  // What counts: solved alone, solved after a hint or a wrong move, or the solution shown.
  const LABEL = { solved: 'solved', helped: 'solved with help', shown: 'solution shown' };
  const puzzles = [];

  function summary() {
    const box = document.getElementById('zprogress');
    if (!box) return;
    const n = (k) => puzzles.filter((z) => progress[z.id] === k).length;
    box.textContent = 'Your progress in this browser: ' + n('solved') + ' solved, '
      + n('helped') + ' solved with help, ' + n('shown') + ' shown, of ' + puzzles.length + '.';
  }

  function record(z, result) {
    // A better result replaces a worse one, never the other way round.
    const rank = { shown: 0, helped: 1, solved: 2 };
    const old = progress[z.id];
    if (old === undefined || rank[result] > rank[old]) progress[z.id] = result;
    save(progress);
    badge(z);
    summary();
  }

  function badge(z) {
    const r = progress[z.id];
    z.badge.textContent = r ? LABEL[r] : '';
    z.badge.className = 'zbadge ' + (r || '');
  }

  // data-z: variant | FEN | n (numeric) or a | the solution's moves by their whole paths.
  function setup(article) {
    const f = article.getAttribute('data-z').split('|');
    const z = {
      article, id: article.getAttribute('data-id') || article.id, variant: f[0], fen: f[1],
      numeric: f[2] === 'n', solution: f[3] ? f[3].split(' ') : [], i: 0, help: false,
    };
    const black = z.fen.charAt(0) === 'B';
    const wrap = V.html('div', 'zboard');
    const svg = V.el('svg', { 'class': 'vb', viewBox: '0 0 8 8', role: 'img', 'aria-label': 'puzzle board' }, wrap);
    // The viewer's drawing, on a board of our own: shown from the solver's side.
    z.v = {
      svg, flipped: black, k: 0, moves: [], sel: [],
      g: { start: [], turn: black ? 'b' : 'w', numeric: z.numeric, plies: [], lines: [], scores: [], after: {} },
      alt: { board: null, last: null },
    };
    const diagram = article.querySelector('svg.board');
    diagram.parentNode.insertBefore(wrap, diagram);
    diagram.classList.add('zstatic');
    const h2 = article.querySelector('h2');
    z.badge = V.html('span', 'zbadge', h2);
    z.say = V.html('p', 'zsay', null);
    wrap.parentNode.insertBefore(z.say, wrap.nextSibling);
    const tools = V.html('div', 'wtools ztools', null);
    z.say.parentNode.insertBefore(tools, z.say.nextSibling);
    [['Hint', () => hint(z)], ['Solution', () => reveal(z)], ['Again', () => restart(z)]].forEach((b) => {
      const button = V.html('button', '', tools, b[0]);
      button.type = 'button';
      button.addEventListener('click', b[1]);
    });
    V.drawBoard(z.v);
    P.click(z.v, (sq) => click(z, sq));
    article.classList.add('zon');
    badge(z);
    puzzles.push(z);
    return restart(z);
  }

  function request(z, extra) {
    return Object.assign({ variant: z.variant, fen: z.fen, moves: z.solution.slice(0, z.i),
      notation: z.numeric ? 'numeric' : 'algebraic' }, extra);
  }

  async function show(z) {
    const rules = await P.rules();
    z.state = rules.position(request(z));
    z.v.alt.board = z.state.board.split('');
    const played = z.i ? rules.play(request(z, { moves: z.solution.slice(0, z.i - 1), move: z.solution[z.i - 1] })).played : null;
    z.v.alt.last = played ? { path: played.path.map((n) => n - 1) } : null;
    z.v.sel = [];
    V.drawPieces(z.v);
    z.article.setAttribute('data-step', z.i);
  }

  const solverToMove = (z) => z.i % 2 === 0 && z.i < z.solution.length;

  function say(z, text, cls) {
    z.say.textContent = text;
    z.say.className = 'zsay ' + (cls || '');
  }

  async function restart(z) {
    z.i = 0;
    z.help = false;
    z.busy = false;
    await show(z);
    say(z, (z.fen.charAt(0) === 'B' ? 'Black' : 'White') + ' to play: find the winning line.');
  }

  async function click(z, sq) {
    if (z.busy || !solverToMove(z)) return;
    const r = P.pick(z.state.moves, z.v.sel, sq);
    if (!r.move) {
      z.v.sel = r.sel;
      P.marks(z.v, z.state.moves);
      return;
    }
    const text = P.answerText(r.move);
    if (text !== z.solution[z.i]) {
      z.help = true;
      z.v.sel = [];
      V.drawPieces(z.v);
      z.article.setAttribute('data-tried', text);
      return say(z, r.move.notation + ' is legal, but not the solution. Try again.', 'zno');
    }
    await advance(z, r.move.notation + ' is right.');
  }

  // Plays the solver's move and the reply to it.
  async function advance(z, text) {
    z.i += 1;
    await show(z);
    if (z.i >= z.solution.length) return finish(z);
    say(z, text + ' The reply comes\u2026', 'zok');
    z.busy = true;
    await new Promise((done) => setTimeout(done, REPLY_MS));
    z.i += 1;
    z.busy = false;
    await show(z);
    if (z.i >= z.solution.length) return finish(z);
    say(z, text + ' ' + z.state.line[z.i - 1] + ' was the reply: go on.', 'zok');
  }

  function finish(z) {
    const by = z.shown ? 'shown' : z.help ? 'helped' : 'solved';
    record(z, by);
    say(z, by === 'shown' ? 'That was the solution.' : 'Solved!', 'zok');
  }

  function hint(z) {
    if (!solverToMove(z)) return;
    z.help = true;
    const from = +z.solution[z.i].split(/[-x]/)[0];
    z.v.sel = [from];
    P.marks(z.v, z.state.moves.filter((m) => P.answerText(m) === z.solution[z.i]));
    say(z, 'Hint: the piece to move is marked.');
  }

  async function reveal(z) {
    if (z.busy) return;
    z.shown = true;
    z.busy = true;
    while (z.i < z.solution.length) {
      z.i += 1;
      await show(z);
      say(z, 'Solution: ' + z.state.line.join(' '));
      await new Promise((done) => setTimeout(done, REPLY_MS));
    }
    z.busy = false;
    finish(z);
    z.shown = false;
  }

  const articles = document.querySelectorAll('article[data-z]');
  if (!articles.length) return;
  P.rules().then(() => {
    articles.forEach((a) => setup(a));
    const header = document.querySelector('header');
    if (header) V.html('p', '', header).id = 'zprogress';
    summary();
    document.documentElement.classList.add('zjs');
  }, () => { /* no WebAssembly: the static puzzles stay */ });
})();
