// The address friends can open to join a room (issue 43). A host who opened `http://localhost:8080/` would otherwise
// hand out a link (and a QR code) that no other device can open. In order:
//   1. the server's public address (`--public-url`, from /api/config), when it has one;
//   2. for a page opened on loopback, one of the server's network addresses (/api/config's `networkAddresses`,
//      IPv4 first) with the page's own protocol and port;
//   3. the address the page was opened with.
// When the page is on loopback and the server offers no other address, the link is `loopbackOnly`: the waiting room
// and the invite dialog say that friends cannot open it, and what to do.

import { roomLink } from './router.js';

/** Whether `hostname` (as `location.hostname` gives it) names this machine only. */
export function isLoopbackHost(hostname) {
  const host = String(hostname ?? '').toLowerCase().replace(/^\[(.*)\]$/, '$1');
  // RFC 6761 §6.3: "localhost" and names under ".localhost"; RFC 1122 §3.2.1.3: 127.0.0.0/8; RFC 4291 §2.5.3: ::1.
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host)
    || host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/** A host for a URL: IPv6 addresses in brackets (RFC 3986 §3.2.2). */
function urlHost(address) {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * The base of the invite link (no trailing slash) and whether only this machine can open it.
 * @param {{publicUrl?: string|null, networkAddresses?: string[]|null}} config what /api/config said (null fields
 *   while it has not answered)
 * @param {{protocol: string, hostname: string, port: string, origin: string}} location the page's address
 * @returns {{base: string, loopbackOnly: boolean}}
 */
export function inviteBase(config, location) {
  if (typeof config?.publicUrl === 'string' && config.publicUrl) {
    return { base: config.publicUrl.replace(/\/+$/, ''), loopbackOnly: false };
  }
  const origin = String(location?.origin ?? '').replace(/\/+$/, '');
  if (!isLoopbackHost(location?.hostname)) return { base: origin, loopbackOnly: false };
  const addresses = Array.isArray(config?.networkAddresses)
    ? config.networkAddresses.filter((address) => typeof address === 'string' && address && !isLoopbackHost(address))
    : null;
  // Not known yet (/api/config has not answered): no warning that may prove wrong a moment later.
  if (addresses === null) return { base: origin, loopbackOnly: false };
  const address = addresses.find((entry) => !entry.includes(':')) ?? addresses[0];
  if (!address) return { base: origin, loopbackOnly: true };
  const port = location.port ? `:${location.port}` : '';
  return { base: `${location.protocol}//${urlHost(address)}${port}`, loopbackOnly: false };
}

/** The link to room `code` to hand out (with a private room's `key`), and whether only this machine can open it. */
export function inviteLink(config, location, code, key = null) {
  const { base, loopbackOnly } = inviteBase(config, location);
  return { link: roomLink(base, code ?? '', key), loopbackOnly };
}
