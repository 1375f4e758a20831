"""Rule tables the stages apply: judged derivations (derivations), the offensive flags' rules (offensive)."""
