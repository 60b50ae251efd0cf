// What the server's `GET /api/config` sends as `games` (server-games.json, a copy of Sources/Rooms/
// GameRegistry.swift's `catalog`), applied to the page's settings as main.js does: the steppers' bounds in the
// unit tests. Tests/Browser/lobby_test.py checks each game in the copy against the running server; a new game's
// tests may apply their own copy the same way.
import { readFileSync } from 'node:fs';
import { applyServerGames } from '../../web/js/core/game-settings.js';

export const SERVER_GAMES = Object.freeze(JSON.parse(readFileSync(new URL('./server-games.json', import.meta.url), 'utf8')));

applyServerGames(SERVER_GAMES);
