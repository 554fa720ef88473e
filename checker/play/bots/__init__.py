"""Computer players (bots) registered by name: random, greedy and seed 000's v1 and v2."""
