"""The checker pages' questions: a scenario's parameters in, every verdict with its reason out, under one
ruleset or side by side under all (the variant matrix)."""
