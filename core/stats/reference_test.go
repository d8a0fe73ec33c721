package stats

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cases of testdata/cases.json, and what scripts/stats_goldens.py (Python's statistics module
// and exact fractions, the reference) computed for them in testdata/expected.json.
type refCases struct {
	Agreement []struct {
		Name  string  `json:"name"`
		Judge []*bool `json:"judge"`
		Human []*bool `json:"human"`
	} `json:"agreement"`
	Correlation []struct {
		Name string     `json:"name"`
		X    []*float64 `json:"x"`
		Y    []*float64 `json:"y"`
	} `json:"correlation"`
	Consistency []struct {
		Name string    `json:"name"`
		Rows [][]*bool `json:"rows"`
	} `json:"consistency"`
	Proportion []struct {
		Name string `json:"name"`
		K    int    `json:"k"`
		N    int    `json:"n"`
	} `json:"proportion"`
	Calibration []struct {
		Name  string     `json:"name"`
		P     []*float64 `json:"p"`
		Human []*bool    `json:"human"`
	} `json:"calibration"`
	Jury []struct {
		Name     string   `json:"name"`
		Rule     string   `json:"rule"`
		PassAt   *float64 `json:"pass_at"`
		Verdicts []struct {
			Passed *bool    `json:"passed"`
			Score  *float64 `json:"score"`
		} `json:"verdicts"`
	} `json:"jury"`
}

type refExpected struct {
	Agreement []struct {
		Name               string      `json:"name"`
		Pairs              int         `json:"pairs"`
		Compared           int         `json:"compared"`
		NoLabel            int         `json:"no_label"`
		Undetermined       int         `json:"undetermined"`
		Agree              int         `json:"agree"`
		Matrix             Matrix      `json:"matrix"`
		Accuracy           *float64    `json:"accuracy"`
		Kappa              *float64    `json:"kappa"`
		KappaSE            *float64    `json:"kappa_se"`
		KappaCI            *[2]float64 `json:"kappa_ci"`
		ExpectedAgreement  *float64    `json:"expected_agreement"`
		JudgeFailPrecision *float64    `json:"judge_fail_precision"`
		JudgeFailRecall    *float64    `json:"judge_fail_recall"`
	} `json:"agreement"`
	Correlation []struct {
		Name     string   `json:"name"`
		N        int      `json:"n"`
		Pearson  *float64 `json:"pearson"`
		Spearman *float64 `json:"spearman"`
		MAE      *float64 `json:"mae"`
	} `json:"correlation"`
	Consistency []struct {
		Name        string   `json:"name"`
		Rows        int      `json:"rows"`
		Unanimous   int      `json:"unanimous"`
		Split       int      `json:"split"`
		FleissKappa *float64 `json:"fleiss_kappa"`
		FleissRows  int      `json:"fleiss_rows"`
		FleissReps  int      `json:"fleiss_repeats"`
		PerRow      []struct {
			Majority  *bool `json:"majority"`
			Unanimous bool  `json:"unanimous"`
			N         int   `json:"n"`
		} `json:"per_row"`
	} `json:"consistency"`
	Proportion []struct {
		Name string      `json:"name"`
		Rate *float64    `json:"rate"`
		CI   *[2]float64 `json:"ci"`
	} `json:"proportion"`
	Calibration []struct {
		Name    string   `json:"name"`
		N       int      `json:"n"`
		Skipped int      `json:"skipped"`
		Brier   *float64 `json:"brier"`
		ECE     *float64 `json:"ece"`
		Bins    []struct {
			Lo    float64  `json:"lo"`
			Hi    float64  `json:"hi"`
			N     int      `json:"n"`
			MeanP *float64 `json:"mean_p"`
			Rate  *float64 `json:"rate"`
		} `json:"bins"`
	} `json:"calibration"`
	Jury []struct {
		Name    string   `json:"name"`
		Members int      `json:"members"`
		Votes   Votes    `json:"votes"`
		Scored  int      `json:"scored"`
		Passed  *bool    `json:"passed"`
		Score   *float64 `json:"score"`
		Code    *string  `json:"code"`
	} `json:"jury"`
}

func verdicts(v []*bool) []Verdict {
	out := make([]Verdict, len(v))
	for i, b := range v {
		switch {
		case b == nil:
		case *b:
			out[i] = Pass
		default:
			out[i] = Fail
		}
	}
	return out
}

func scoreList(v []*float64) []Score {
	out := make([]Score, len(v))
	for i, f := range v {
		if f != nil {
			out[i] = Score{*f, true}
		}
	}
	return out
}

// close asserts that got is nil exactly when want is, and otherwise within 1e-12 of it.
func close(t *testing.T, want, got *float64, what string) {
	t.Helper()
	if want == nil {
		assert.Nil(t, got, "%s: undefined in the reference", what)
		return
	}
	if assert.NotNil(t, got, "%s: the reference has %v", what, *want) {
		assert.InDelta(t, *want, *got, 1e-12, what)
	}
}

// reference reads testdata/cases.json and what the reference computed for them.
func reference(t *testing.T) (cases refCases, want refExpected) {
	b, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &cases))
	b, err = os.ReadFile(filepath.Join("testdata", "expected.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &want))
	return cases, want
}

// TestAgainstReference compares every statistic with the reference's, case by case.
func TestAgainstReference(t *testing.T) {
	cases, want := reference(t)
	const regen = "run: /usr/bin/python3 scripts/stats_goldens.py"
	require.Len(t, want.Agreement, len(cases.Agreement), regen)
	require.Len(t, want.Correlation, len(cases.Correlation), regen)
	require.Len(t, want.Consistency, len(cases.Consistency), regen)
	require.Len(t, want.Proportion, len(cases.Proportion), regen)
	require.Len(t, want.Calibration, len(cases.Calibration), regen)
	require.Len(t, want.Jury, len(cases.Jury), regen)

	for i, tc := range cases.Agreement {
		w := want.Agreement[i]
		require.Equal(t, tc.Name, w.Name, regen)
		t.Run("agreement/"+tc.Name, func(t *testing.T) {
			a, err := Agree(verdicts(tc.Judge), verdicts(tc.Human))
			require.NoError(t, err)
			assert.Equal(t, w.Matrix, a.Matrix)
			assert.Equal(t, []int{w.Pairs, w.Compared, w.NoLabel, w.Undetermined, w.Agree},
				[]int{a.Pairs, a.Compared, a.NoLabel, a.Undetermined, a.Agree})
			close(t, w.Accuracy, a.Accuracy, "accuracy")
			close(t, w.ExpectedAgreement, a.ExpectedAgreement, "expected agreement")
			close(t, w.Kappa, a.Kappa, "κ")
			close(t, w.KappaSE, a.KappaSE, "κ's SE")
			if w.KappaCI == nil {
				assert.Nil(t, a.KappaCI)
				assert.NotEmpty(t, a.KappaReason)
			} else if assert.NotNil(t, a.KappaCI) {
				assert.InDelta(t, w.KappaCI[0], a.KappaCI[0], 1e-12)
				assert.InDelta(t, w.KappaCI[1], a.KappaCI[1], 1e-12)
				assert.Empty(t, a.KappaReason)
			}
			close(t, w.JudgeFailPrecision, a.JudgeFailPrecision, "precision")
			close(t, w.JudgeFailRecall, a.JudgeFailRecall, "recall")
		})
	}
	for i, tc := range cases.Correlation {
		w := want.Correlation[i]
		require.Equal(t, tc.Name, w.Name, regen)
		t.Run("correlation/"+tc.Name, func(t *testing.T) {
			c, err := Correlate(scoreList(tc.X), scoreList(tc.Y))
			require.NoError(t, err)
			assert.Equal(t, w.N, c.N)
			close(t, w.Pearson, c.Pearson, "pearson")
			close(t, w.Spearman, c.Spearman, "spearman")
			close(t, w.MAE, c.MAE, "mae")
		})
	}
	for i, tc := range cases.Consistency {
		w := want.Consistency[i]
		require.Equal(t, tc.Name, w.Name, regen)
		t.Run("consistency/"+tc.Name, func(t *testing.T) {
			rows := make([][]Verdict, len(tc.Rows))
			for k, r := range tc.Rows {
				rows[k] = verdicts(r)
			}
			c := Consistent(rows)
			assert.Equal(t, []int{w.Rows, w.Unanimous, w.Split, w.FleissRows, w.FleissReps},
				[]int{c.Rows, c.Unanimous, c.Split, c.FleissRows, c.FleissRepeats})
			assert.Equal(t, w.FleissKappa == nil, c.FleissReason != "", "a reason exactly when κ is undefined")
			close(t, w.FleissKappa, c.FleissKappa, "Fleiss' κ")
			require.Len(t, c.PerRow, len(w.PerRow))
			for k, r := range w.PerRow {
				assert.Equal(t, r.Majority, c.PerRow[k].Majority, "row %d's majority", k)
				assert.Equal(t, r.Unanimous, c.PerRow[k].Unanimous, "row %d unanimous", k)
				assert.Equal(t, r.N, c.PerRow[k].N, "row %d's count", k)
			}
		})
	}
	for i, tc := range cases.Calibration {
		w := want.Calibration[i]
		require.Equal(t, tc.Name, w.Name, regen)
		t.Run("calibration/"+tc.Name, func(t *testing.T) {
			c, err := Calibrate(scoreList(tc.P), verdicts(tc.Human))
			require.NoError(t, err)
			assert.Equal(t, []int{w.N, w.Skipped}, []int{c.N, c.Skipped})
			close(t, w.Brier, c.Brier, "Brier")
			close(t, w.ECE, c.ECE, "ECE")
			assert.Equal(t, w.Brier == nil, c.BrierReason != "", "a reason exactly when undefined")
			assert.Equal(t, w.ECE == nil, c.ECEReason != "", "a reason exactly when undefined")
			require.Len(t, c.Bins, len(w.Bins))
			for k, b := range w.Bins {
				assert.Equal(t, []float64{b.Lo, b.Hi}, []float64{c.Bins[k].Lo, c.Bins[k].Hi}, "bin %d", k)
				assert.Equal(t, b.N, c.Bins[k].N, "bin %d's count", k)
				close(t, b.MeanP, c.Bins[k].MeanP, "bin's mean p")
				close(t, b.Rate, c.Bins[k].Rate, "bin's rate")
			}
		})
	}
	for i, tc := range cases.Jury {
		w := want.Jury[i]
		require.Equal(t, tc.Name, w.Name, regen)
		t.Run("jury/"+tc.Name, func(t *testing.T) {
			members := make([]Member, len(tc.Verdicts))
			for k, v := range tc.Verdicts {
				members[k].Verdict = verdicts([]*bool{v.Passed})[0]
				if v.Score != nil {
					members[k].Score = Score{*v.Score, true}
				}
			}
			var at float64
			if tc.PassAt != nil {
				at = *tc.PassAt
			}
			j, err := Jury(members, tc.Rule, at, tc.PassAt != nil)
			require.NoError(t, err)
			assert.Equal(t, []int{w.Members, w.Scored}, []int{j.Members, j.Scored})
			assert.Equal(t, w.Votes, j.Votes)
			assert.Equal(t, w.Passed, j.Passed)
			close(t, w.Score, j.Score, "score")
			if w.Code == nil {
				assert.Empty(t, j.Checks)
			} else if assert.Len(t, j.Checks, 1) {
				assert.Equal(t, *w.Code, string(j.Checks[0].Code))
				assert.Equal(t, "error", j.Checks[0].Severity)
			}
		})
	}
}

// TestProportionAgainstReference compares Share's rate and Wilson interval with the reference's
// (computed in another algebraic form, in 50-digit decimals).
func TestProportionAgainstReference(t *testing.T) {
	cases, want := reference(t)
	require.Len(t, want.Proportion, len(cases.Proportion), "run: /usr/bin/python3 scripts/stats_goldens.py")
	for i, tc := range cases.Proportion {
		w := want.Proportion[i]
		t.Run(tc.Name, func(t *testing.T) {
			p := Share(tc.K, tc.N)
			close(t, w.Rate, p.Rate, "rate")
			if w.CI == nil {
				assert.Nil(t, p.CI)
				assert.NotEmpty(t, p.Reason)
				return
			}
			require.NotNil(t, p.CI)
			assert.InDelta(t, w.CI[0], p.CI[0], 1e-12, "lower bound")
			assert.InDelta(t, w.CI[1], p.CI[1], 1e-12, "upper bound")
		})
	}
}

// TestReferenceCurrent fails when expected.json is not what the reference script computes today.
func TestReferenceCurrent(t *testing.T) {
	const python = "/usr/bin/python3"
	if runtime.GOOS == "js" {
		t.Skip("no processes under wasm")
	}
	if _, err := os.Stat(python); err != nil {
		t.Skipf("no %s", python)
	}
	out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "stats_goldens.py"), "--check").CombinedOutput()
	require.NoError(t, err, "%s", out)
}
