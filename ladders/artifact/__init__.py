"""What reads and checks the artifact: the export contract, verify, diff."""
