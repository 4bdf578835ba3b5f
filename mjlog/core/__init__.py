"""The core: tiles, events, rulesets, findings, records and the catalogue of codes
(what every layer uses), and which core runs (native or Python, ``native``). It imports
only the standard library, itself and mjlog's own native extension.
"""
