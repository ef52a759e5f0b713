package score

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrInfeasible is wrapped by the error [LinearSumAssignment] returns when no
// complete assignment has a finite cost.
var ErrInfeasible = errors.New("cost matrix is infeasible")

// LinearSumAssignment solves the rectangular linear sum assignment problem: it
// pairs min(rows, cols) rows and columns, each used at most once, so that the
// summed cost of the pairs is smallest (largest with maximize). It returns the
// pairs as two index slices, rows ascending, like scipy.optimize.linear_sum_assignment.
//
// It is the shortest augmenting path algorithm scipy uses (DF Crouse, "On
// implementing 2D rectangular assignment algorithms", IEEE TAES 52(4), 2016,
// pp. 1685-1686; scipy/scipy scipy/optimize/rectangular_lsap/rectangular_lsap.cpp),
// written here with the same choices wherever several optima exist — columns are
// scanned from the last to the first, a tie in path length prefers a free column,
// a matrix with more rows than columns is solved transposed — so it returns the
// pairs scipy returns, not just an assignment of the same total. That matters to
// step-graph scoring: which of several maximum matchings is kept decides which
// precondition edges map onto each other.
//
// Entries may be +Inf (a forbidden pair; -Inf when maximizing) but not NaN or, when
// minimizing, -Inf. A ragged matrix, an invalid entry, or a matrix in which every
// complete assignment uses a forbidden pair is an error.
func LinearSumAssignment(cost [][]float64, maximize bool) (rows, cols []int, err error) {
	nr := len(cost)
	nc := 0
	if nr > 0 {
		nc = len(cost[0])
	}
	for i, r := range cost {
		if len(r) != nc {
			return nil, nil, fmt.Errorf("score: assignment: row %d has %d entries, row 0 has %d", i, len(r), nc)
		}
	}
	if nr == 0 || nc == 0 {
		return []int{}, []int{}, nil
	}
	transpose := nc < nr
	if transpose {
		nr, nc = nc, nr
	}
	// c is the row-major working matrix: transposed when tall, negated to maximize.
	c := make([]float64, nr*nc)
	for i := range nr {
		for j := range nc {
			oi, oj := i, j // position in the input
			if transpose {
				oi, oj = j, i
			}
			v := cost[oi][oj]
			if maximize {
				v = -v
			}
			if math.IsNaN(v) || math.IsInf(v, -1) {
				return nil, nil, fmt.Errorf("score: assignment: invalid entry %v at (%d, %d)", cost[oi][oj], oi, oj)
			}
			c[i*nc+j] = v
		}
	}
	col4row, err := shortestAugmentingPath(nr, nc, c)
	if err != nil {
		return nil, nil, fmt.Errorf("score: assignment: %w", err)
	}
	rows, cols = make([]int, nr), make([]int, nr)
	if !transpose {
		for i := range nr {
			rows[i], cols[i] = i, col4row[i]
		}
		return rows, cols, nil
	}
	// Transposed: row i of the working matrix is a column of the input. Order the
	// pairs by the input's row (col4row values are distinct).
	order := make([]int, nr)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return col4row[a] - col4row[b] })
	for k, i := range order {
		rows[k], cols[k] = col4row[i], i
	}
	return rows, cols, nil
}

// shortestAugmentingPath assigns every row of the nr×nc matrix c (nr <= nc) a
// distinct column, minimizing the total; it returns the column of each row.
// One row enters per round: a Dijkstra-like search over reduced costs
// c[i][j] - u[i] - v[j] finds the cheapest path from the new row to a free
// column, the duals are updated so that reduced costs stay non-negative, and the
// path's assignments are flipped.
func shortestAugmentingPath(nr, nc int, c []float64) ([]int, error) {
	u := make([]float64, nr)
	v := make([]float64, nc)
	dist := make([]float64, nc) // shortest path cost to each column this round
	path := make([]int, nc)     // the row a column was reached from
	col4row := make([]int, nr)
	row4col := make([]int, nc)
	for i := range col4row {
		col4row[i] = -1
	}
	for j := range row4col {
		row4col[j] = -1
		path[j] = -1
	}
	seenRow := make([]bool, nr)
	seenCol := make([]bool, nc)
	todo := make([]int, nc) // columns not yet reached, in scan order

	for cur := range nr {
		for k := range todo {
			todo[k] = nc - 1 - k // last column first: a constant matrix gives the identity
		}
		left := nc
		clear(seenRow)
		clear(seenCol)
		for j := range dist {
			dist[j] = math.Inf(1)
		}
		minVal := 0.0
		i, sink := cur, -1
		for sink < 0 {
			seenRow[i] = true
			best, lowest := -1, math.Inf(1)
			for k := range left {
				j := todo[k]
				if r := minVal + c[i*nc+j] - u[i] - v[j]; r < dist[j] {
					path[j] = i
					dist[j] = r
				}
				// Among equally short paths take one that ends in a free column.
				if dist[j] < lowest || (dist[j] == lowest && row4col[j] < 0) {
					lowest, best = dist[j], k
				}
			}
			minVal = lowest
			if math.IsInf(minVal, 1) {
				return nil, ErrInfeasible
			}
			j := todo[best]
			if row4col[j] < 0 {
				sink = j
			} else {
				i = row4col[j]
			}
			seenCol[j] = true
			left--
			todo[best] = todo[left]
		}
		u[cur] += minVal
		for r := range nr {
			if seenRow[r] && r != cur {
				u[r] += minVal - dist[col4row[r]]
			}
		}
		for j := range nc {
			if seenCol[j] {
				v[j] -= minVal - dist[j]
			}
		}
		for j := sink; ; {
			r := path[j]
			row4col[j] = r
			col4row[r], j = j, col4row[r]
			if r == cur {
				break
			}
		}
	}
	return col4row, nil
}

// MaxMatching returns a maximum one-to-one matching of a 0/1 match matrix
// (m[i][j] true when gold step i and predicted step j say the same thing) as
// (row, column) pairs, rows ascending. It is SpatiaLQA's max_match_binary_matrix
// (xieyc99/SpatiaLQA utils.py): linear_sum_assignment on the cost 1 - m, keeping
// the assigned pairs whose entry is 1. A ragged matrix is an error.
func MaxMatching(m [][]bool) ([][2]int, error) {
	cost := make([][]float64, len(m))
	for i, row := range m {
		cost[i] = make([]float64, len(row))
		for j, ok := range row {
			if !ok {
				cost[i][j] = 1
			}
		}
	}
	rows, cols, err := LinearSumAssignment(cost, false)
	if err != nil {
		return nil, fmt.Errorf("score: max matching: %w", err)
	}
	var pairs [][2]int
	for k, i := range rows {
		if m[i][cols[k]] {
			pairs = append(pairs, [2]int{i, cols[k]})
		}
	}
	return pairs, nil
}
