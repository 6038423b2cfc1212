"""What every table shares: the store (the action log), the one action declaration, live pages, players, tokens."""
