# SPDX-License-Identifier: GPL-2.0-only
"""Validate npsock output for the sockets-* integration tests (the socket populations
themselves come from tests/helpers/nptraffic).

  sock_helper.py validate SCHEMA_FRAGMENT FILE
      validate a "sockets" object (npsock output) against sockets.schema.json
"""
import json
import sys


def validate(fragment, path):
    import jsonschema
    frag = json.load(open(fragment))
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$defs": frag["$defs"], **frag["sockets"]}
    jsonschema.validate(json.load(open(path)), schema)


if len(sys.argv) == 4 and sys.argv[1] == "validate":
    validate(sys.argv[2], sys.argv[3])
else:
    sys.exit(__doc__)
