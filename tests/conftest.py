"""Shared test settings.

Property tests run on a 2-core CI machine that may be busy: Hypothesis's timing checks
(deadline, too-slow data generation) would make them fail for reasons unrelated to the
code, so they are off; what a property test asserts stays as strict as written.
"""

import atexit
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings
from loaded import rules_of

# The loaded-rules cache (kotc_rulesc.rules_cache) of the tests' commands goes to a folder of
# this run's own, not the user's ~/.cache (subprocesses inherit it).  With pytest-xdist the
# controller makes it and its workers inherit it: one cache for the run (its writes are atomic).
if "PYTEST_XDIST_WORKER" not in os.environ or not os.environ.get("KOTC_RULESC_TEST_CACHE"):
    os.environ["KOTC_RULESC_TEST_CACHE"] = tempfile.mkdtemp(prefix="kotc-rulesc-cache-")
    atexit.register(shutil.rmtree, os.environ["KOTC_RULESC_TEST_CACHE"], True)
os.environ["KOTC_RULESC_CACHE"] = os.environ["KOTC_RULESC_TEST_CACHE"]

settings.register_profile(
    "kotc",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("kotc")


@pytest.fixture(scope="session")
def rules():
    """The bundled rules, loaded once (modules that need their own copy define ``rules`` themselves)."""
    return rules_of()
