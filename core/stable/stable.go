// Package stable sorts indices stably without reflect. sort.SliceStable swaps the elements of any
// slice through internal/reflectlite's Swapper; with sort's own stable algorithm, that was 3.5 KB
// of the wasm's brotli for sorts of a few names, keys and offsets. The core sorts indices here
// and reads its slices through them.
package stable

// Order returns the indices 0 to n-1 ordered by less, equal ones in their order.
func Order(n int, less func(i, j int) bool) []int {
	a := make([]int, n)
	for i := range a {
		a[i] = i
	}
	Sort(a, less)
	return a
}

// Sort sorts the indices a by less, stably: a merge sort (halves split at len/2, an element of
// the right half taken first only when less than the left one's), n·log n comparisons.
func Sort(a []int, less func(i, j int) bool) {
	if len(a) > 1 {
		mergeSort(a, make([]int, len(a)), less)
	}
}

func mergeSort(a, tmp []int, less func(i, j int) bool) {
	if len(a) < 2 {
		return
	}
	m := len(a) / 2
	mergeSort(a[:m], tmp[:m], less)
	mergeSort(a[m:], tmp[m:], less)
	copy(tmp, a)
	i, j, k := 0, m, 0
	for ; i < m && j < len(a); k++ {
		if less(tmp[j], tmp[i]) {
			a[k] = tmp[j]
			j++
		} else {
			a[k] = tmp[i]
			i++
		}
	}
	k += copy(a[k:], tmp[i:m])
	copy(a[k:], tmp[j:])
}
