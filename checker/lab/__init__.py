"""Balance studies: arms of rulesets played by bots in seeded shards on Dask, with intervals."""
