"""How work runs: worker processes, clusters, where records are stored (files, URLs,
archives) and progress.
"""
