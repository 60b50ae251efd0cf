import Transport

extension ServerOptions {
    /// The machine's addresses that friends on its networks can open (numeric, IPv4 first): those of its
    /// interfaces when the server listens on all of them (`::` takes IPv6 and IPv4, `0.0.0.0` IPv4 only), none with
    /// `--public-url` (that address replaces them) or a specific `--host` (the server answers on that one only).
    ///
    /// Read anew on each call (`getifaddrs(3)`): a laptop's Wi-Fi address changes while the server runs. The start
    /// line prints them as URLs; `/api/config` hands them to the page, which puts one in the invite link when it
    /// was opened on loopback (a friend's phone cannot open `localhost`).
    public var networkAddresses: [String] {
        guard publicURL == nil else { return [] }
        switch host {
        case "::": return InterfaceAddresses.shareable(includingIPv6: true)
        case "0.0.0.0": return InterfaceAddresses.shareable(includingIPv6: false)
        default: return []
        }
    }
}

extension ServerOptions {
    /// `networkAddresses` for `/api/config` asked by `client` (its numeric address, after trusted proxies): only a
    /// page on this machine needs them (a page opened elsewhere already has an address friends can open), and
    /// nobody else learns the machine's private addresses.
    public func networkAddresses(forClient client: String) -> [String] {
        ConnectionsPerAddress.isLoopback(client) ? networkAddresses : []
    }
}
