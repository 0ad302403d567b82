#!/usr/bin/env python3
"""Apply the nightly configuration patch."""
import base64

PATCH = "cHJpbnQoJ3BhdGNoZWQnKQ=="

exec(base64.b64decode(PATCH))
