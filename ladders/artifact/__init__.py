"""What reads and checks the artifact: the export contract, verify (its checks in checks/), diff."""
