// The games this page plays, one line each, in the order the lobby lists them. Each line loads a game's folder
// (web/js/games/<id>/index.js), which registers the game (core/game-registry.js); nothing else names a game.

import './games/snowman/index.js';
import './games/scramble/index.js';
import './games/sleuth/index.js';
