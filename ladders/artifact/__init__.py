"""What reads, checks and publishes the artifact: the export contract (contract), verify (its checks in
checks/), diff, the judged reports (audit, panel), and what is made from an export: the MySQL dump (sqldump),
the web page (webexport, webfolder) and the release folder (release)."""
