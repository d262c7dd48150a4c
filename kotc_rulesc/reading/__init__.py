"""Reading input under one policy (:mod:`.policy`), one reader per format (:mod:`.json_reader`,
:mod:`.yaml_reader`): the rules loader, ``cards/`` and ``migrate/`` all read through here.
"""
