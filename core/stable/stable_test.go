package stable

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOrderIsSliceStable: the same order as sort.SliceStable, for lists of every length up to
// 300 with few distinct keys (so that stability shows), sorted, reversed and shuffled.
func TestOrderIsSliceStable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 300; n++ {
		for _, shape := range []string{"random", "sorted", "reversed"} {
			keys := make([]int, n)
			for i := range keys {
				switch shape {
				case "random":
					keys[i] = r.IntN(n/4 + 1)
				case "sorted":
					keys[i] = i / 3
				default:
					keys[i] = (n - i) / 3
				}
			}
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			sort.SliceStable(want, func(i, j int) bool { return keys[want[i]] < keys[want[j]] })
			assert.Equal(t, want, Order(n, func(i, j int) bool { return keys[i] < keys[j] }), "%s, n=%d", shape, n)
		}
	}
}

// TestSortComparesAsBefore: Sort makes the comparisons template's pySort made with its own merge
// sort before it used this one (oldMergeSort, kept here as it was), in the same order, so that
// even an inconsistent comparison (Python's, with NaN) orders a list as it did.
func TestSortComparesAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 200; n += 7 {
		keys := make([]int, n)
		for i := range keys {
			keys[i] = r.IntN(10)
		}
		var want, got [][2]int
		a := Order(n, func(i, j int) bool { return false })
		b := append([]int{}, a...)
		_ = oldMergeSort(a, make([]int, n), func(i, j int) (bool, error) {
			want = append(want, [2]int{i, j})
			return keys[i] < keys[j] || (keys[i]+keys[j])%7 == 0, nil // inconsistent on purpose
		})
		Sort(b, func(i, j int) bool {
			got = append(got, [2]int{i, j})
			return keys[i] < keys[j] || (keys[i]+keys[j])%7 == 0
		})
		assert.Equal(t, want, got, "n=%d", n)
		assert.Equal(t, a, b, "n=%d", n)
	}
}

// oldMergeSort is core/template's mergeSort as it was before it became Sort.
func oldMergeSort(a, tmp []int, less func(a, b int) (bool, error)) error {
	if len(a) < 2 {
		return nil
	}
	m := len(a) / 2
	if err := oldMergeSort(a[:m], tmp[:m], less); err != nil {
		return err
	}
	if err := oldMergeSort(a[m:], tmp[m:], less); err != nil {
		return err
	}
	copy(tmp, a)
	i, j, k := 0, m, 0
	for i < m && j < len(a) {
		lt, err := less(tmp[j], tmp[i])
		if err != nil {
			return err
		}
		if lt {
			a[k] = tmp[j]
			j++
		} else {
			a[k] = tmp[i]
			i++
		}
		k++
	}
	k += copy(a[k:], tmp[i:m])
	copy(a[k:], tmp[j:])
	return nil
}
