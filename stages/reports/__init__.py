"""Reports the stages write for people beside their tables: the export's summary.txt (summary)."""
