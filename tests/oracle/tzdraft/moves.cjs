// The legal moves of positions by TzDraft's own server code (build/, see build.mjs).
//
// stdin: one position per line, {"turn": "WHITE"|"BLACK", "pieces": [{"p": 1-32, "c":
// "WHITE"|"BLACK", "k": bool}, ...]} in TzDraft's numbering (its boardSnapshot's shape).
// stdout: one JSON line per position, the list of its legal moves, each [from, to,
// [captured squares in order], [landing squares]], as its MoveGeneratorService (quiet moves)
// and CaptureFindingService (captures, every route it lists) give them.
"use strict";
require("reflect-metadata");
const readline = require("node:readline");
const { Game } = require("./build/domain/game/entities/game.entity");
const { BoardState } = require("./build/domain/game/value-objects/board-state.vo");
const { CaptureFindingService } = require("./build/domain/game/services/capture-finding.service");
const { MoveGeneratorService } = require("./build/domain/game/services/move-generator.service");

const captures = new CaptureFindingService();
const generator = new MoveGeneratorService();

function movesOf(position) {
  const board = BoardState.fromSnapshot(position.pieces);
  const found = captures.findAllCaptures(board, position.turn);
  if (found.length > 0) {
    return found.map((c) => [
      c.from.value,
      c.to.value,
      c.capturedSquares.map((p) => p.value),
      c.path.map((p) => p.value),
    ]);
  }
  const game = new Game("oracle", "w", "b", "CASUAL");
  game.restoreFromSnapshot(position.pieces, []);
  return generator
    .generateAllMoves(game, position.turn)
    .map((m) => [m.from.value, m.to.value, [], [m.to.value]]);
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  process.stdout.write(JSON.stringify(movesOf(JSON.parse(line))) + "\n");
});
