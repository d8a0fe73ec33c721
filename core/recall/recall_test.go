package recall

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"ragjudge/core/diag"
	"ragjudge/core/exact"
	"ragjudge/prompts"
)

func rats(t testing.TB, xs ...string) []*exact.Rat {
	t.Helper()
	out := make([]*exact.Rat, len(xs))
	for i, x := range xs {
		r, err := ParseScore(x)
		require.NoError(t, err, x)
		out[i] = r
	}
	return out
}

// seedExample is one "Example n:" of the verbatim rag-recall prompt: the answer text and its
// five RECALL_ formula lines without the bullet.
type seedExample struct {
	text  string
	lines []string
}

func seedExamples(t *testing.T) []seedExample {
	t.Helper()
	src, err := fs.ReadFile(prompts.FS, "rag-recall.md")
	require.NoError(t, err)
	text := string(src)
	text = text[strings.Index(text, "Example Outputs:"):strings.Index(text, "GROUND_TRUTH_PASSAGE: {passage_gt}")]
	var out []seedExample
	for _, part := range strings.Split(text, "\nExample ")[1:] {
		ex := seedExample{text: part}
		for _, l := range strings.Split(part, "\n") {
			if strings.HasPrefix(l, "• RECALL_") && !strings.HasPrefix(l, "• RECALL_Reasoning") {
				ex.lines = append(ex.lines, strings.TrimPrefix(l, "• "))
			}
		}
		out = append(out, ex)
	}
	require.Len(t, out, 4)
	return out
}

// TestSeedExamples reads each of the seed's example outputs with ReadAnswer, recomputes it with
// Compute and compares the result with the seed's own formula lines, line for line.
func TestSeedExamples(t *testing.T) {
	for i, ex := range seedExamples(t) {
		a := ReadAnswer(ex.text)
		e, b := 0, 0
		for _, sec := range a.Sections {
			if sec.Kind == Essential {
				e++
			} else {
				b++
			}
		}
		es, bs, warnings, problems := a.Resolve(e, b)
		require.Empty(t, problems, "example %d", i+1)
		require.Empty(t, warnings, "example %d", i+1)
		r, err := Compute(values(es), values(bs))
		require.NoError(t, err)
		assert.Equal(t, ex.lines, r.Lines[:], "example %d", i+1)
		for l, st := range a.Stated {
			require.NotNil(t, st, "example %d line %d", i+1, l)
			require.NotNil(t, st.Value, "example %d line %d", i+1, l)
			assert.Equal(t, Format(Round2(st.Value)), Format(resultValue(r, l)), "example %d line %d", i+1, l)
		}
	}
}

func values(ss []Score) []*exact.Rat {
	out := make([]*exact.Rat, len(ss))
	for i, s := range ss {
		out[i] = s.Value
	}
	return out
}

func resultValue(r *Result, line int) *exact.Rat {
	switch line {
	case LineEssential:
		return r.EssentialPart
	case LineBonus:
		return r.BonusPart
	case LineCombined:
		return r.Combined
	}
	return r.Final
}

func TestCompute(t *testing.T) {
	tests := []struct {
		name             string
		essential, bonus []string
		exact            [4]string // essential, bonus, combined, final
		lines            []string
	}{
		{"seed example 1", []string{"4", "3"}, []string{"4", "0"}, [4]string{"7/2", "1/2", "4", "4"}, []string{
			"RECALL_Essential_Formula: (4 + 3) / 2 = 3.5",
			"RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5",
			"RECALL_Combined_Formula: 3.5 + 0.5 = 4",
			"RECALL_Final_Score_Calculation: min(5, 4) = 4",
			"RECALL_Final_Score: 4",
		}},
		{"no bonus", []string{"1", "2"}, nil, [4]string{"3/2", "0", "3/2", "3/2"}, []string{
			"RECALL_Essential_Formula: (1 + 2) / 2 = 1.5",
			"RECALL_Bonus_Formula: (0) / (2 * 0 * 2) = 0",
			"RECALL_Combined_Formula: 1.5 + 0 = 1.5",
			"RECALL_Final_Score_Calculation: min(5, 1.5) = 1.5",
			"RECALL_Final_Score: 1.5",
		}},
		{"capped at 5", []string{"5", "5"}, []string{"5"}, [4]string{"5", "5/4", "25/4", "5"}, []string{
			"RECALL_Essential_Formula: (5 + 5) / 2 = 5",
			"RECALL_Bonus_Formula: (5) / (2 * 1 * 2) = 1.25",
			"RECALL_Combined_Formula: 5 + 1.25 = 6.25",
			"RECALL_Final_Score_Calculation: min(5, 6.25) = 5",
			"RECALL_Final_Score: 5",
		}},
		{"thirds and a sixth, rounded per step: the terms add up as written", []string{"4", "4", "3"}, []string{"1"}, [4]string{"11/3", "1/6", "23/6", "23/6"}, []string{
			"RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67",
			"RECALL_Bonus_Formula: (1) / (3 * 1 * 2) = 0.17",
			"RECALL_Combined_Formula: 3.67 + 0.17 = 3.84",
			"RECALL_Final_Score_Calculation: min(5, 3.84) = 3.84",
			"RECALL_Final_Score: 3.84",
		}},
		{"thirds", []string{"4", "4", "3"}, []string{"0"}, [4]string{"11/3", "0", "11/3", "11/3"}, []string{
			"RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67",
			"RECALL_Bonus_Formula: (0) / (3 * 1 * 2) = 0",
			"RECALL_Combined_Formula: 3.67 + 0 = 3.67",
			"RECALL_Final_Score_Calculation: min(5, 3.67) = 3.67",
			"RECALL_Final_Score: 3.67",
		}},
		{"decimals half up", []string{"3.5", "4"}, []string{"2.5"}, [4]string{"15/4", "5/8", "35/8", "35/8"}, []string{
			"RECALL_Essential_Formula: (3.5 + 4) / 2 = 3.75",
			"RECALL_Bonus_Formula: (2.5) / (2 * 1 * 2) = 0.63",
			"RECALL_Combined_Formula: 3.75 + 0.63 = 4.38",
			"RECALL_Final_Score_Calculation: min(5, 4.38) = 4.38",
			"RECALL_Final_Score: 4.38",
		}},
		{"one essential, 3.125", []string{"3.125"}, nil, [4]string{"25/8", "0", "25/8", "25/8"}, []string{
			"RECALL_Essential_Formula: (3.125) / 1 = 3.13",
			"RECALL_Bonus_Formula: (0) / (1 * 0 * 2) = 0",
			"RECALL_Combined_Formula: 3.13 + 0 = 3.13",
			"RECALL_Final_Score_Calculation: min(5, 3.13) = 3.13",
			"RECALL_Final_Score: 3.13",
		}},
		{"score given as 4/5", []string{"4/5", "5"}, []string{"3 out of 5"}, [4]string{"9/2", "3/4", "21/4", "5"}, []string{
			"RECALL_Essential_Formula: (4 + 5) / 2 = 4.5",
			"RECALL_Bonus_Formula: (3) / (2 * 1 * 2) = 0.75",
			"RECALL_Combined_Formula: 4.5 + 0.75 = 5.25",
			"RECALL_Final_Score_Calculation: min(5, 5.25) = 5",
			"RECALL_Final_Score: 5",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compute(rats(t, tt.essential...), rats(t, tt.bonus...))
			require.NoError(t, err)
			assert.Equal(t, len(tt.essential), r.E)
			assert.Equal(t, len(tt.bonus), r.B)
			assert.Equal(t, tt.exact, [4]string{r.EssentialPart.RatString(), r.BonusPart.RatString(), r.Combined.RatString(), r.Final.RatString()})
			assert.Equal(t, tt.lines, r.Lines[:])
			sum := r.Summary()
			assert.Equal(t, tt.lines, sum.Lines)
			assert.Equal(t, tt.exact[3], sum.Exact.Final)
		})
	}
}

func TestComputeJSON(t *testing.T) {
	r, err := Compute(rats(t, "4", "3"), rats(t, "4", "0"))
	require.NoError(t, err)
	b, err := r.MarshalJSON()
	require.NoError(t, err)
	assert.JSONEq(t, `{"essential":3.5,"bonus":0.5,"combined":4,"final":4,
		"exact":{"essential":"7/2","bonus":"1/2","combined":"4","final":"4"},
		"stepped":{"essential":3.5,"bonus":0.5,"combined":4,"final":4},
		"lines":["RECALL_Essential_Formula: (4 + 3) / 2 = 3.5","RECALL_Bonus_Formula: (4 + 0) / (2 * 2 * 2) = 0.5",
		"RECALL_Combined_Formula: 3.5 + 0.5 = 4","RECALL_Final_Score_Calculation: min(5, 4) = 4","RECALL_Final_Score: 4"]}`, string(b))
	// Rounded per step, the chain ends one hundredth above the exact value: both are said.
	r, err = Compute(rats(t, "4", "4", "3"), rats(t, "1"))
	require.NoError(t, err)
	b, err = r.MarshalJSON()
	require.NoError(t, err)
	assert.JSONEq(t, `{"essential":3.67,"bonus":0.17,"combined":3.83,"final":3.83,
		"exact":{"essential":"11/3","bonus":"1/6","combined":"23/6","final":"23/6"},
		"stepped":{"essential":3.67,"bonus":0.17,"combined":3.84,"final":3.84},
		"lines":["RECALL_Essential_Formula: (4 + 4 + 3) / 3 = 3.67","RECALL_Bonus_Formula: (1) / (3 * 1 * 2) = 0.17",
		"RECALL_Combined_Formula: 3.67 + 0.17 = 3.84","RECALL_Final_Score_Calculation: min(5, 3.84) = 3.84","RECALL_Final_Score: 3.84"]}`, string(b))
}

// TestCompare: a judge's line is the same as the exact value, right on its own terms rounded per
// step (the seed asks for 2 decimals, "round up from 3": half up or up), or an error.
func TestCompare(t *testing.T) {
	const (
		same    = LineSame
		step    = LineRoundedPerStep
		differs = LineDiffers
		none    = LineNotStated
	)
	tests := []struct {
		name             string
		essential, bonus []string
		stated           [NumLines]string // "" for a line not stated
		want             [NumLines]LineCheck
	}{
		{"the seed's example 1", []string{"4", "3"}, []string{"4", "0"},
			[NumLines]string{"3.5", "0.5", "4", "4", "4"}, [NumLines]LineCheck{same, same, same, same, same}},
		{"rounded per step: 3.67 + 0.17 = 3.84 (exactly 23/6, 3.83)", []string{"4", "4", "3"}, []string{"1"},
			[NumLines]string{"3.67", "0.17", "3.84", "3.84", "3.84"}, [NumLines]LineCheck{same, same, step, step, step}},
		{"the exact value on every line", []string{"4", "4", "3"}, []string{"1"},
			[NumLines]string{"3.67", "0.17", "3.83", "3.83", "3.83"}, [NumLines]LineCheck{same, same, same, same, same}},
		{"more decimals are the exact value", []string{"4", "4", "3"}, []string{"1"},
			[NumLines]string{"3.6667", "0.1667", "3.8334", "3.8334", "3.8334"}, [NumLines]LineCheck{same, same, same, same, same}},
		{"rounded up, as 'round up from 3' also reads: 3.34 for 10/3, 0.34 for 1/3", []string{"3", "4", "3"}, []string{"2"},
			[NumLines]string{"3.34", "0.34", "3.68", "3.68", "3.68"}, [NumLines]LineCheck{step, step, step, step, step}},
		{"rounded half up on the same scores", []string{"3", "4", "3"}, []string{"2"},
			[NumLines]string{"3.33", "0.33", "3.66", "3.66", "3.66"}, [NumLines]LineCheck{same, same, step, step, step}},
		{"truncated is not rounded: 3.66 for 11/3", []string{"4", "4", "3"}, []string{"0"},
			[NumLines]string{"3.66", "0", "3.66", "3.66", "3.66"}, [NumLines]LineCheck{differs, same, differs, differs, differs}},
		{"only the lines after a skipped one", []string{"4", "4", "3"}, []string{"1"},
			[NumLines]string{"", "", "3.84", "", "3.84"}, [NumLines]LineCheck{none, none, step, none, step}},
		{"an addition error", []string{"4", "4", "3"}, []string{"1"},
			[NumLines]string{"3.67", "0.17", "3.94", "3.94", "3.94"}, [NumLines]LineCheck{same, same, differs, differs, differs}},
		{"an error carried on is still wrong", []string{"4", "3"}, []string{"4", "0"},
			[NumLines]string{"3.5", "1", "4.5", "4.5", "4.5"}, [NumLines]LineCheck{same, differs, differs, differs, differs}},
		{"capped at 5", []string{"5", "5", "4"}, []string{"5", "5", "5"},
			[NumLines]string{"4.67", "0.83", "5.5", "5", "5"}, [NumLines]LineCheck{same, same, same, same, same}},
		{"the cap written wrong", []string{"5", "5", "4"}, []string{"5", "5", "5"},
			[NumLines]string{"4.67", "0.83", "5.5", "5.5", "5.5"}, [NumLines]LineCheck{same, same, same, differs, differs}},
		{"a final score that does not follow its own calculation", []string{"4", "4", "3"}, []string{"1"},
			[NumLines]string{"3.67", "0.17", "3.84", "3.84", "3.9"}, [NumLines]LineCheck{same, same, step, step, differs}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compute(rats(t, tt.essential...), rats(t, tt.bonus...))
			require.NoError(t, err)
			var stated [NumLines]*exact.Rat
			for i, s := range tt.stated {
				if s != "" {
					stated[i] = rats(t, s)[0]
				}
			}
			assert.Equal(t, tt.want, r.Compare(stated))
		})
	}
}

func TestComputeErrors(t *testing.T) {
	tests := []struct {
		name             string
		essential, bonus []*exact.Rat
		msg              string
	}{
		{"no essential", nil, nil, "no essential passage: the recall needs at least one essential score (E = 0)"},
		{"no essential with bonus", nil, rats(t, "3"), "no essential passage: the recall needs at least one essential score (E = 0)"},
		{"essential above 5", rats(t, "4", "6"), nil, "essential score 2 is 6, out of 1–5"},
		{"essential 0", rats(t, "0"), nil, "essential score 1 is 0, out of 1–5"},
		{"essential below 1", rats(t, "0.5"), nil, "essential score 1 is 0.5, out of 1–5"},
		{"essential negative", rats(t, "-1"), nil, "essential score 1 is -1: negative, out of 1–5"},
		{"bonus above 5", rats(t, "4"), rats(t, "5.5"), "bonus score 1 is 5.5, out of 0–5"},
		{"bonus negative", rats(t, "4"), rats(t, "3", "-1"), "bonus score 2 is -1: negative, out of 0–5"},
		{"nil essential", []*exact.Rat{nil}, nil, "essential score 1 is missing"},
		{"nil bonus", rats(t, "4"), []*exact.Rat{nil}, "bonus score 1 is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Compute(tt.essential, tt.bonus)
			assert.Nil(t, r)
			var d *diag.Error
			require.ErrorAs(t, err, &d)
			assert.Equal(t, "recall", d.Kind)
			assert.Equal(t, tt.msg, d.Msg)
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct{ in, want string }{
		{"4", "4"}, {"7/2", "3.5"}, {"25/8", "3.13"}, {"11/3", "3.67"}, {"2/3", "0.67"}, {"1/3", "0.33"},
		{"5/8", "0.63"}, {"1/200", "0.01"}, {"1/201", "0"}, {"0", "0"}, {"399/100", "3.99"},
		{"3999/1000", "4"}, {"1/8", "0.13"}, {"-1/8", "-0.13"}, {"-1/1000", "0"}, {"41/10", "4.1"},
		{"100", "100"}, {"123456789/10", "12345678.9"},
		// Halves that binary floats cannot hold: 2.675 and 1.005 round up, exactly.
		{"107/40", "2.68"}, {"201/200", "1.01"}, {"-201/200", "-1.01"},
		{"123456789012345678901234567890/7", "17636684144620811271604938270"},
	}
	for _, tt := range tests {
		r, ok := new(exact.Rat).SetString(tt.in)
		require.True(t, ok)
		assert.Equal(t, tt.want, Format(r), tt.in)
		assert.Equal(t, tt.want, Format(Round2(r)), tt.in)
	}
	assert.Equal(t, "", Format(nil))
	assert.Equal(t, 3.67, Float(exact.NewRat(11, 3)))
	assert.Equal(t, 0.63, Float(exact.NewRat(5, 8)))
}

func TestParseScore(t *testing.T) {
	ok := []struct{ in, want string }{
		{"4", "4"}, {" 4 ", "4"}, {"3.5", "7/2"}, {".5", "1/2"}, {"4.", "4"}, {"4.00", "4"}, {"+4", "4"},
		{"-1", "-1"}, {"6", "6"}, {"4/5", "4"}, {"4 / 5", "4"}, {"3.5/5", "7/2"}, {"4/5.0", "4"},
		{"4 out of 5", "4"}, {"4 OUT OF 5", "4"}, {"0", "0"}, {"05", "5"}, {"-.5", "-1/2"},
	}
	for _, tt := range ok {
		r, err := ParseScore(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, r.RatString(), tt.in)
	}
	bad := []struct{ in, msg string }{
		{"", `cannot read score "": not a number`},
		{"four", `cannot read score "four": not a number`},
		{"NaN", `cannot read score "NaN": not a number`},
		{"Inf", `cannot read score "Inf": not a number`},
		{"-Inf", `cannot read score "-Inf": not a number`},
		{"1e3", `cannot read score "1e3": unexpected "e3" after the number`},
		{"0x10", `cannot read score "0x10": unexpected "x10" after the number`},
		{"4/10", `score "4/10" is not out of 5`},
		{"8/10", `score "8/10" is not out of 5`},
		{"4/0", `score "4/0" is not out of 5`},
		{"4/", `cannot read score "4/": the part after the number is not "/5"`},
		{"4/5/5", `cannot read score "4/5/5": the part after the number is not "/5"`},
		{".", `cannot read score ".": not a number`},
		{"-", `cannot read score "-": not a number`},
		{"3,5", `cannot read score "3,5": unexpected ",5" after the number`},
		{strings.Repeat("9", 41), `cannot read score "99999999999999999999…": too long for a score`},
	}
	for _, tt := range bad {
		r, err := ParseScore(tt.in)
		assert.Nil(t, r, tt.in)
		var d *diag.Error
		require.ErrorAs(t, err, &d, tt.in)
		assert.Equal(t, "recall", d.Kind)
		assert.Equal(t, tt.msg, d.Msg, tt.in)
	}
}

func TestPassages(t *testing.T) {
	tests := []struct {
		name             string
		gt               string
		essential, bonus []string
	}{
		{"none", "", []string{}, []string{}},
		{"no markers", "just text", []string{}, []string{}},
		{"seed layout",
			"Intro is ignored.\n[ESSENTIAL PASSAGE]\nParis is the capital.\n\n[ESSENTIAL PASSAGE]\nIt is on the Seine.\n\n[BONUS PASSAGE]\nIt has 2M people.\n",
			[]string{"Paris is the capital.", "It is on the Seine."}, []string{"It has 2M people."}},
		{"inline", "[ESSENTIAL PASSAGE] A. [BONUS PASSAGE] B. [ESSENTIAL PASSAGE] C.",
			[]string{"A.", "C."}, []string{"B."}},
		{"case and spacing", "[essential passage]\na\n[Bonus  Passage]\nb\n[ESSENTIAL_PASSAGE] c",
			[]string{"a", "c"}, []string{"b"}},
		{"numbered after", "[ESSENTIAL PASSAGE] 1: a\n[ESSENTIAL PASSAGE] 2.\nb\n[BONUS PASSAGE] #1 - c",
			[]string{"a", "b"}, []string{"c"}},
		{"numbered inside", "[ESSENTIAL PASSAGE 1] a\n[BONUS PASSAGE #2]\nb", []string{"a"}, []string{"b"}},
		{"bold", "**[ESSENTIAL PASSAGE]**\na\n__[BONUS PASSAGE]__ b\n**[ESSENTIAL PASSAGE] 2:** c",
			[]string{"a", "c"}, []string{"b"}},
		{"number that is text", "[ESSENTIAL PASSAGE] 2023 was a year.\n[ESSENTIAL PASSAGE] 3.5 percent",
			[]string{"2023 was a year.", "3.5 percent"}, []string{}},
		{"list on next line", "[ESSENTIAL PASSAGE]\n1. first\n2. second", []string{"1. first\n2. second"}, []string{}},
		{"own emphasis kept", "[ESSENTIAL PASSAGE] _this_ matters", []string{"_this_ matters"}, []string{}},
		{"not markers", "[ESSENTIAL] [PASSAGE] [ESSENTIAL PASSAGES] [BONUS PASSAGEWAY] [ESSENTIALPASSAGE] [ESSENTIAL PASSAGE",
			[]string{}, []string{}},
		{"empty passages", "[ESSENTIAL PASSAGE][BONUS PASSAGE]", []string{""}, []string{""}},
		{"unicode", "Préambule\n[ESSENTIAL PASSAGE]\nÉté à Paris — 東京\n", []string{"Été à Paris — 東京"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, b := Passages(tt.gt)
			assert.Equal(t, tt.essential, e)
			assert.Equal(t, tt.bonus, b)
			ne, nb := CountMarkers(tt.gt)
			assert.Equal(t, len(tt.essential), ne)
			assert.Equal(t, len(tt.bonus), nb)
		})
	}
}
