// Seat keeping. A joined seat is remembered in sessionStorage (its resume token), so a reload or Forward resumes
// it. Stepping out of a room (Back, a phone's back swipe, the brand link) keeps the seat: no `leave` is sent, the
// socket is swapped for a fresh one, the server holds the seat for its grace period, and the lobby offers
// "Back to room CODE" until then. Only the Leave button (after its confirmation) gives the seat up.

import { ROOM, SEAT_GRACE_SECONDS } from '../core/store.js';
import { saveSeat, forgetSeat } from '../core/prefs.js';

/**
 * @param {object} deps
 * @param {object} deps.store
 * @param {{session: Storage}} deps.storage
 * @param {{setTimeout, clearTimeout}} deps.browser
 * @param {() => number} deps.clock milliseconds
 */
export function createSeatKeeper({ store, storage, browser, clock }) {
  let keptSeatTimer = null;

  return {
    /** Shows "Back to room CODE" in the lobby while the server still keeps the seat we stepped out of. */
    keep(code) {
      const untilMs = clock() + SEAT_GRACE_SECONDS * 1000;
      store.setKeptSeat({ code, until: untilMs });
      if (keptSeatTimer !== null) browser.clearTimeout(keptSeatTimer);
      keptSeatTimer = browser.setTimeout(() => {
        keptSeatTimer = null;
        if (store.getState().ui.keptSeat?.code === code) store.setKeptSeat(null);
      }, SEAT_GRACE_SECONDS * 1000);
    },

    /** The room changed: remembers a joined seat, forgets a refused or given-up one. */
    roomChanged(room, before) {
      if (room?.status === ROOM.JOINED && room.token) saveSeat(storage.session, room);
      if (room?.status === ROOM.FAILED) forgetSeat(storage.session, room.code);
      if (!room && before?.status === ROOM.LEAVING) forgetSeat(storage.session, before.code);
    },
  };
}
