// Transpiles the part of TzDraft's backend that plays a move (its domain services, the game
// entity, the make-move use case and the Prisma repositories) from a TzDraft checkout into
// build/, as CommonJS, with empty stand-ins for the services the use case is handed but that
// play no part in a move's rules (the socket gateway, ratings, tournaments, Prisma, Redis).
//
//   node build.mjs /path/to/TzDraft        (a checkout of kayzo1903/TzDraft, e.g. at c6d93e58)
import ts from "typescript";
import fs from "node:fs";
import path from "node:path";

const checkout = process.argv[2];
if (!checkout) {
  console.error("usage: node build.mjs /path/to/TzDraft");
  process.exit(2);
}
const src = path.join(checkout, "backend", "src");
const out = new URL("./build/", import.meta.url).pathname;

const files = [
  "shared/constants/game.constants.ts",
  "domain/game/value-objects/board-state.vo.ts",
  "domain/game/value-objects/piece.vo.ts",
  "domain/game/value-objects/position.vo.ts",
  "domain/game/entities/game.entity.ts",
  "domain/game/entities/move.entity.ts",
  "domain/game/services/capture-finding.service.ts",
  "domain/game/services/game-rules.service.ts",
  "domain/game/services/move-generator.service.ts",
  "domain/game/services/move-validation.service.ts",
  "domain/game/types/capture-path.type.ts",
  "domain/game/types/move-result.type.ts",
  "domain/game/types/validation-error.type.ts",
  "application/use-cases/make-move.use-case.ts",
  "infrastructure/repositories/prisma-game.repository.ts",
  "infrastructure/repositories/prisma-move.repository.ts",
];

// Modules the use case and the repositories import for their constructors' types only.
const standIns = {
  "infrastructure/messaging/games.gateway.js": "GamesGateway",
  "application/use-cases/rating.service.js": "RatingService",
  "application/use-cases/tournament/report-tournament-result.use-case.js":
    "ReportTournamentResultUseCase",
  "infrastructure/database/prisma/prisma.service.js": "PrismaService",
  "infrastructure/cache/redis.service.js": "RedisService",
};

const options = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2021,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
};

fs.rmSync(out, { recursive: true, force: true });
for (const file of files) {
  const text = fs.readFileSync(path.join(src, file), "utf8");
  const js = ts.transpileModule(text, { compilerOptions: options, fileName: file }).outputText;
  const target = path.join(out, file.replace(/\.ts$/, ".js"));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, js);
}
for (const [file, name] of Object.entries(standIns)) {
  const target = path.join(out, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `"use strict";\nclass ${name} {}\nexports.${name} = ${name};\n`);
}
console.error(`${files.length} files of ${src} transpiled into ${out}`);
