/// Every game the server hosts, in the order the lobby lists them: adding a game is its folder and one line here
/// (and one in the web client's `web/js/games.js`).
public enum GameCatalog {
    public static let games: [any GamePlugin.Type] = [
        SnowmanGame.self,
        ScrambleGame.self,
        SleuthGame.self,
    ]
}
