"""Deploying the environment and the HPSv3 scorer as Hugging Face Spaces (`watercolour deploy`).

A room above the server (it checks a deploy's settings with the server's own `load_settings`):
`plan` (every check, and the Hub calls), `calls` (carry a plan out, or record it in a dry run),
`space_folder` (the folder a Space is built from), `commands` (the `deploy` command line).
"""
