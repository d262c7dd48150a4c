"""Shared test settings.

Property tests run on a 2-core CI machine that may be busy: Hypothesis's timing checks
(deadline, too-slow data generation) would make them fail for reasons unrelated to the
code, so they are off; what a property test asserts stays as strict as written.
"""

import atexit
import os
import shutil
import sys
import tempfile

# pytest keeps each test module's assertion-rewritten byte code in tests/__pycache__ unless byte code
# is not to be written (PYTHONDONTWRITEBYTECODE, which this sandbox sets): then every pytest process
# rewrote all the test modules again, about 2 s of each worker's start.  The test processes write it
# (as tools/test.sh compiles the package for the commands the tests start).
sys.dont_write_bytecode = False

import pytest
from hypothesis import HealthCheck, settings
from support.browser import launch, unavailable
from support.loaded import rules_of

# The templates jinja2 compiles (kotc_rulesc.render) for the tests' builds go to a folder of
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


#: the files whose tests take longest (a wheel built and installed, the fuzz budgets, scaffolded and
#: full builds, Chromium…), slowest first, as measured (tools/test.sh on 2 cores): with ``--dist
#: loadfile --no-loadscope-reorder`` each file goes whole to the next free worker, in the order
#: collected, so the long ones start at once and the short ones (all the others, under 2 s each)
#: fill in around them — the workers end together instead of one waiting on the last long file
SLOW_FIRST = ("test_wheel.py", "test_fuzz.py", "test_fuzz_campaign.py", "test_issue27_cases.py", "test_scaffold_edition.py",
              "test_build.py", "test_migrate_yaml.py", "test_docs_browser.py", "test_workbench_browser.py",
              "test_decision_cache.py", "test_workbench_server.py", "test_precommit_hooks.py", "test_rules_data.py",
              "test_input_policy.py", "test_codegen_tables.py", "test_cards_property.py", "test_output_safety.py",
              "test_render_docs.py", "test_diff_editions.py", "test_startup_imports.py", "test_editions_14_17.py",
              "test_migrate_cli.py", "test_source_documents.py", "test_yaml_reading.py",
              "test_new_edition_safety.py")


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # (stable: each file's own order kept)


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium for the test process (tests/support/browser.py), or the test skipped saying why."""
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    with launch() as b:
        yield b


@pytest.fixture(scope="module")
def tab(browser):
    """One tab of it for a test module: each test opens its page in the tab (a new document)."""
    page = browser.new_page()
    yield page
    page.close()
