"""What plays rather than judges: rounds, players, simulated runs and their replay.

Imports the rules engine (checker.engine); the engine never imports this package.
"""
