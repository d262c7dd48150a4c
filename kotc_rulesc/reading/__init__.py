"""Reading input under one policy: every file every command is given, one reader per format.

:mod:`.policy` opens an input and holds README's limits (:data:`~.policy.POLICY`) and
:class:`~.policy.InputError`; :mod:`.json_reader` reads JSON and JSONL with the standard library's
decoder; :mod:`.yaml_reader` reads YAML from libyaml's events (ruamel.yaml's public ``parse``).
The rules loader, ``cards/`` and ``migrate/`` all read through here, so one file gets one answer.
"""
