// Replaced by the bot client's sources.
enum BotPlaceholder {}
