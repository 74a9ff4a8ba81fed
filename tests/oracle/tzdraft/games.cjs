// Games played through TzDraft's own server code (build/, see build.mjs): its
// MakeMoveUseCase with its Prisma game and move repositories over an in-memory store, so
// every move is validated, applied, saved (with the board snapshot) and the game ended
// exactly as on TzDraft's server. The socket gateway, ratings and tournaments are stubs.
//
//   node games.cjs random N SEED [MAXPLIES]   N random games from the start position
//   node games.cjs replay                     stdin: {"snapshot"?: [...], "moves": [[from, to,
//                                             [path…]], …]} per line, played in order
// stdout: one JSON line per game, the database row as Prisma returns it (camelCase, with its
// `moves`), or {"rejected": ply, "message": …} for a replayed move the server refuses.
"use strict";
require("reflect-metadata");
const { MakeMoveUseCase } = require("./build/application/use-cases/make-move.use-case");
const { PrismaGameRepository } = require("./build/infrastructure/repositories/prisma-game.repository");
const { PrismaMoveRepository } = require("./build/infrastructure/repositories/prisma-move.repository");
const { CaptureFindingService } = require("./build/domain/game/services/capture-finding.service");
const { MoveGeneratorService } = require("./build/domain/game/services/move-generator.service");

/** The part of Prisma's client the two repositories use, over plain objects. */
function memoryPrisma() {
  const games = new Map();
  const moves = new Map();
  const sorted = (gameId) =>
    [...(moves.get(gameId) ?? [])].sort((a, b) => a.moveNumber - b.moveNumber);
  return {
    games,
    game: {
      findUnique: async ({ where }) => {
        const row = games.get(where.id);
        return row ? { ...row, moves: sorted(where.id), clock: null } : null;
      },
      update: async ({ where, data }) => {
        const row = { ...games.get(where.id), ...data };
        games.set(where.id, row);
        return { ...row };
      },
    },
    move: {
      create: async ({ data }) => {
        if (!moves.has(data.gameId)) moves.set(data.gameId, []);
        moves.get(data.gameId).push({ ...data });
        return { ...data };
      },
      findMany: async ({ where }) => sorted(where.gameId),
    },
    rowOf: (id) => ({ ...games.get(id), moves: sorted(id) }),
  };
}

function server() {
  const prisma = memoryPrisma();
  const gameRepository = new PrismaGameRepository(prisma);
  const moveRepository = new PrismaMoveRepository(prisma);
  const gateway = { emitGameStateUpdate() {}, emitGameOver() {} };
  const ratings = { updateRatings: async () => {} };
  const tournaments = { execute: async () => {} };
  const makeMove = new MakeMoveUseCase(gameRepository, moveRepository, gateway, ratings, tournaments);
  return { prisma, gameRepository, makeMove };
}

function newGame(prisma, id, snapshot) {
  prisma.games.set(id, {
    id,
    status: "ACTIVE",
    gameType: "CASUAL",
    ruleVersion: "TZ-8x8-v1.1",
    initialTimeMs: 600000,
    whitePlayerId: "white",
    blackPlayerId: "black",
    whiteElo: null,
    blackElo: null,
    aiLevel: null,
    inviteCode: null,
    creatorColor: null,
    winner: null,
    endReason: null,
    boardSnapshot: snapshot ?? null,
    createdAt: new Date("2026-03-02T18:00:00.000Z"),
    startedAt: new Date("2026-03-02T18:00:00.000Z"),
    endedAt: null,
    tournamentMatchGameId: null,
  });
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const captures = new CaptureFindingService();
const generator = new MoveGeneratorService();

async function randomGame(s, id, rand, maxPlies) {
  newGame(s.prisma, id);
  for (let ply = 0; ply < maxPlies; ply++) {
    const game = await s.gameRepository.findById(id);
    if (game.status !== "ACTIVE") break;
    const turn = game.currentTurn;
    const player = turn === "WHITE" ? "white" : "black";
    const found = captures.findAllCaptures(game.board, turn);
    if (found.length > 0) {
      const c = found[Math.floor(rand() * found.length)];
      await s.makeMove.execute(id, player, c.from.value, c.to.value, c.path.map((p) => p.value));
    } else {
      const all = generator.generateAllMoves(game, turn);
      if (all.length === 0) break;
      const m = all[Math.floor(rand() * all.length)];
      await s.makeMove.execute(id, player, m.from.value, m.to.value);
    }
  }
  return s.prisma.rowOf(id);
}

async function replay(s, id, spec) {
  newGame(s.prisma, id, spec.snapshot);
  for (let ply = 0; ply < spec.moves.length; ply++) {
    const game = await s.gameRepository.findById(id);
    const [from, to, path] = spec.moves[ply];
    const player = game.currentTurn === "WHITE" ? "white" : "black";
    try {
      await s.makeMove.execute(id, player, from, to, path && path.length ? path : undefined);
    } catch (e) {
      return { rejected: ply + 1, message: e.message };
    }
  }
  return s.prisma.rowOf(id);
}

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  const s = server();
  const write = (row) => process.stdout.write(JSON.stringify(row) + "\n");
  if (mode === "random") {
    const [n, seed, maxPlies] = [Number(rest[0] ?? 10), Number(rest[1] ?? 1), Number(rest[2] ?? 400)];
    const rand = mulberry32(seed);
    for (let i = 0; i < n; i++) {
      const id = `00000000-0000-4000-9000-${String(seed).padStart(4, "0")}${String(i).padStart(8, "0")}`;
      write(await randomGame(s, id, rand, maxPlies));
    }
  } else if (mode === "replay") {
    const text = require("node:fs").readFileSync(0, "utf8");
    let i = 0;
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      write(await replay(s, `replay-${++i}`, JSON.parse(line)));
    }
  } else {
    console.error("usage: node games.cjs random N SEED [MAXPLIES] | node games.cjs replay");
    process.exit(2);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
