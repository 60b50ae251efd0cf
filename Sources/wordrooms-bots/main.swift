print("wordrooms-bots: not built yet")
