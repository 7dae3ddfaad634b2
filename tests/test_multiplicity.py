import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from ebsstats.stats.multiplicity import adjust_pvalues


@pytest.mark.parametrize("method", ["holm", "fdr_bh", "bonferroni"])
def test_equals_statsmodels(method):
    p = np.random.default_rng(1).uniform(0, 0.2, size=37)
    np.testing.assert_allclose(adjust_pvalues(p, method), multipletests(p, method=method)[1])
