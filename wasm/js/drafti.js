/* drafti.js: drafti's rules and engine in a web page, from the WebAssembly module drafti.wasm.
 * The API is documented in wasm/README.md; in short:
 *   const drafti = await Drafti.load(bytesOrModuleOrUrl);   // in this thread
 *   drafti.position({variant: 'tz', fen, moves: ['22-18']}) // legal moves, outcome, ...
 *   drafti.play({moves, move: '22x15x6'}); drafti.search({moves, movetime: 1000}, onInfo);
 *   const engine = await Drafti.Engine.start(source);       // in a Web Worker
 *   await engine.search({moves, movetime: 1000}, info => ...); engine.stop();
 * A classic script: it sets globalThis.Drafti, and module.exports under Node. */
(function (root) {
  'use strict';

  // One instance of the module and its one entry point, as a function `call(request,
  // onInfo)`. Self-contained (it becomes the worker's source too): it uses nothing outside.
  async function bind(module) {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    let memory = null;
    let onInfo = null;
    const read = (ptr, len) => decoder.decode(new Uint8Array(memory.buffer, ptr, len));
    const clock = typeof performance !== 'undefined' && performance.now
      ? () => performance.now() : () => Date.now();
    const imports = {
      drafti: {
        now_ms: clock,
        on_info: (ptr, len) => { if (onInfo) onInfo(JSON.parse(read(ptr, len))); },
      },
    };
    const instance = await WebAssembly.instantiate(module, imports);
    const x = instance.exports;
    memory = x.memory;
    return function call(request, info) {
      const bytes = encoder.encode(JSON.stringify(request));
      const ptr = x.drafti_alloc(bytes.length);
      new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
      onInfo = info || null;
      let len;
      try {
        len = x.drafti_answer(ptr, bytes.length);
      } finally {
        onInfo = null;
      }
      const answer = JSON.parse(read(x.drafti_answer_ptr(), len));
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer;
    };
  }

  // The worker: answers {id, request} with {id, info} reports and one {id, answer} or
  // {id, error}; the first message carries the compiled module.
  function workerMain(scope, bindModule) {
    let call = null;
    scope.onmessage = async (event) => {
      const m = event.data;
      if (m.module) {
        try {
          call = await bindModule(m.module);
          scope.postMessage({ ready: true });
        } catch (err) {
          scope.postMessage({ failed: String(err && err.message || err) });
        }
        return;
      }
      try {
        const answer = call(m.request, (info) => scope.postMessage({ id: m.id, info }));
        scope.postMessage({ id: m.id, answer });
      } catch (err) {
        scope.postMessage({ id: m.id, error: String(err && err.message || err) });
      }
    };
  }

  const workerSource = "'use strict';\n" + bind.toString() + '\n(' + workerMain.toString()
    + ')(self, bind);\n';

  // A compiled module from bytes, a WebAssembly.Module, a Response or a URL.
  async function compile(source) {
    if (source instanceof WebAssembly.Module) return source;
    if (typeof source === 'string' || (typeof URL !== 'undefined' && source instanceof URL)) {
      source = await fetch(source);
    }
    if (typeof Response !== 'undefined' && source instanceof Response) {
      source = await source.arrayBuffer();
    }
    return WebAssembly.compile(source);
  }

  const ops = (call) => ({
    /** The position after `moves` from `fen`: legal moves, outcome, law 2's count. */
    position: (request) => call(Object.assign({}, request, { op: 'position' })),
    /** `request.move` played after `request.moves`; an illegal or ambiguous move throws. */
    play: (request) => call(Object.assign({}, request, { op: 'play' })),
    /** A search within `depth`, `nodes` or `movetime` (ms); `onInfo` gets every depth. */
    search: (request, onInfo) => call(Object.assign({}, request, { op: 'search' }), onInfo),
    /** The number of move sequences of `depth` plies. */
    perft: (request) => call(Object.assign({}, request, { op: 'perft' })).nodes,
    /** The crate's version and the engine's fingerprint (a search of ten probe positions). */
    version: () => call({ op: 'version' }),
  });

  /** The module in this thread: every call returns at once with its answer (a search blocks
   * this thread for its time: in a page, prefer Engine). */
  async function load(source) {
    const call = await bind(await compile(source));
    return Object.assign({ call }, ops(call));
  }

  /** The module in a Web Worker: every call returns a promise, answered in order; stop()
   * ends a running search at once (its promise resolves with the last depth reported and
   * `stopped: true`) by ending the worker, and a new one takes the next requests. */
  class Engine {
    static async start(source) {
      const engine = new Engine(await compile(source));
      await engine.ready;
      return engine;
    }

    constructor(module) {
      this.module = module;
      this.nextId = 1;
      this.pending = new Map();
      Object.assign(this, ops((request, onInfo) => this.request(request, onInfo)));
      this.spawn();
    }

    spawn() {
      const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
      this.worker = new Worker(url);
      URL.revokeObjectURL(url);
      this.ready = new Promise((resolve, reject) => {
        this.worker.onmessage = (event) => {
          const m = event.data;
          if (m.ready) return resolve();
          if (m.failed) return reject(new Error(m.failed));
          const p = this.pending.get(m.id);
          if (!p) return;
          if (m.info) {
            p.last = m.info;
            if (p.onInfo) p.onInfo(m.info);
          } else {
            this.pending.delete(m.id);
            if (m.error !== undefined) p.reject(new Error(m.error));
            else p.resolve(m.answer);
          }
        };
        this.worker.onerror = (event) => reject(new Error(event.message || 'worker failed'));
      });
      this.worker.postMessage({ module: this.module });
    }

    request(request, onInfo) {
      const id = this.nextId++;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject, onInfo, last: null });
        this.worker.postMessage({ id, request });
      });
    }

    /** Ends what the worker is doing: a search resolves with its last report. */
    stop() {
      if (this.pending.size === 0) return;
      this.worker.terminate();
      for (const p of this.pending.values()) {
        if (p.last) p.resolve(Object.assign({}, p.last, { stopped: true, best: p.last.pv[0] || null }));
        else p.reject(new Error('stopped'));
      }
      this.pending.clear();
      this.spawn();
    }

    /** Ends the worker for good. */
    terminate() {
      this.worker.terminate();
      for (const p of this.pending.values()) p.reject(new Error('terminated'));
      this.pending.clear();
    }
  }

  const api = { load, compile, Engine };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  root.Drafti = api;
})(typeof globalThis !== 'undefined' ? globalThis : this);
