package checkup

import "ragjudge/core/stats"

// Row is one line of a check-up's matrix: a transformation's graded cases by outcome, and its
// catch rate, caught of caught + missed with its 95% Wilson interval. Undetermined cases say
// nothing of whether the judge catches the failure and are counted apart, never as missed.
type Row struct {
	Transform    string           `json:"transform"`
	Caught       int              `json:"caught"`
	Missed       int              `json:"missed"`
	Undetermined int              `json:"undetermined"`
	Total        int              `json:"total"`
	Catch        stats.Proportion `json:"catch"`
}

// MatrixResult is the matrix, its rows in the order their transformations first appear, and the
// overall row over every case ("" as its transform).
type MatrixResult struct {
	Rows    []Row `json:"rows"`
	Overall Row   `json:"overall"`
}

// Graded is one graded case: its transformation and outcome (Caught, Missed, Undetermined).
type Graded struct {
	Transform string
	Outcome   string
}

// Matrix counts graded cases by transformation and outcome. An outcome that is none of the three
// is an error that names the case.
func Matrix(cases []Graded) (MatrixResult, error) {
	res := MatrixResult{Rows: []Row{}}
	at := map[string]int{}
	for k, c := range cases {
		i, ok := at[c.Transform]
		if !ok {
			i = len(res.Rows)
			at[c.Transform] = i
			res.Rows = append(res.Rows, Row{Transform: c.Transform})
		}
		for _, r := range []*Row{&res.Rows[i], &res.Overall} {
			switch c.Outcome {
			case Caught:
				r.Caught++
			case Missed:
				r.Missed++
			case Undetermined:
				r.Undetermined++
			default:
				return MatrixResult{}, errorf("checkupMatrix", "case %d: outcome %q is none of caught, missed, undetermined", k+1, c.Outcome)
			}
			r.Total++
		}
	}
	for i := range res.Rows {
		res.Rows[i].finish()
	}
	res.Overall.finish()
	return res, nil
}

func (r *Row) finish() {
	r.Catch = stats.Share(r.Caught, r.Caught+r.Missed)
	if r.Caught+r.Missed == 0 {
		r.Catch.Reason = "no case was decided"
		if r.Total == 0 {
			r.Catch.Reason = "no cases"
		}
	}
}
