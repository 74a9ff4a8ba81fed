// Perft (leaf counts) by TzDraft's own server code (build/, see build.mjs): its capture finding
// and move generation, each move played on its BoardState as its MoveValidationService plays
// it (captured pieces removed, the piece moved and crowned on the far row). Two routes with
// the same start, end and captured set are one move, as in drafti's perft.
//
//   node perft.cjs DEPTH '{"turn": "WHITE", "pieces": [{"p": 1, "c": "WHITE", "k": false}, …]}'
//   node perft.cjs DEPTH start
// prints the count at each depth from 1 to DEPTH.
"use strict";
require("reflect-metadata");
const { Game } = require("./build/domain/game/entities/game.entity");
const { BoardState } = require("./build/domain/game/value-objects/board-state.vo");
const { CaptureFindingService } = require("./build/domain/game/services/capture-finding.service");
const { MoveGeneratorService } = require("./build/domain/game/services/move-generator.service");

const captures = new CaptureFindingService();
const generator = new MoveGeneratorService();
const other = (turn) => (turn === "WHITE" ? "BLACK" : "WHITE");

function moves(board, turn) {
  const found = captures.findAllCaptures(board, turn);
  if (found.length > 0) {
    const seen = new Map();
    for (const c of found) {
      const caps = c.capturedSquares.map((p) => p.value);
      const key = `${c.from.value}-${c.to.value}-${[...caps].sort((a, b) => a - b)}`;
      if (!seen.has(key)) seen.set(key, c);
    }
    return [...seen.values()].map((c) => {
      let next = board;
      for (const p of c.capturedSquares) next = next.removePiece(p);
      return next.movePiece(c.from, c.to);
    });
  }
  const game = new Game("perft", "w", "b", "CASUAL");
  game.restoreFromSnapshot(board.serialize(), []);
  return generator.generateAllMoves(game, turn).map((m) => board.movePiece(m.from, m.to));
}

function perft(board, turn, depth) {
  const next = moves(board, turn);
  if (depth === 1) return next.length;
  let n = 0;
  for (const b of next) n += perft(b, other(turn), depth - 1);
  return n;
}

const depth = Number(process.argv[2]);
const spec = process.argv[3] === "start" ? null : JSON.parse(process.argv[3]);
const board = spec ? BoardState.fromSnapshot(spec.pieces) : BoardState.createInitialBoard();
const turn = spec ? spec.turn : "WHITE";
for (let d = 1; d <= depth; d++) console.log(`${d} ${perft(board, turn, d)}`);
