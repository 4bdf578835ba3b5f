"""Rule families: the base every family builds on (:mod:`mjlog.families.base`,
:mod:`mjlog.families.check`), the registry that knows them all by name
(:mod:`mjlog.families.registry`), and one package per family.
"""
