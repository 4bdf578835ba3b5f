"""What a run shows: the audit and its settlement, text pictures and screens of
the table, the pages (viewer, referee's report) and tournament reports.
"""
