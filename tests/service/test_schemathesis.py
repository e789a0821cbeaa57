"""Schemathesis over the whole OpenAPI schema with every check, against the real app (the
real Searcher with the keyword encoder over the tiny store), bounded in time."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis.config._checks import NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES

from tests.service.conftest import make_app

load_all_checks()
ALL_CHECKS = CHECKS.get_all()
# Built at import: schemathesis's fixture loader does not work with pytest 9.
_DIR = tempfile.TemporaryDirectory(prefix="judgekb-schemathesis-")
# A query over the length limit is refused with the documented 413, which schemathesis does
# not count as a rejection by default.
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {
                "expected-statuses": [*NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES, "413"]
            }
        }
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", make_app(Path(_DIR.name)), config=CONFIG)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_every_check_on_every_operation(case) -> None:  # type: ignore[no-untyped-def]
    case.call_and_validate(checks=ALL_CHECKS)
