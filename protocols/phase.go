package protocols

import "github.com/gameserver-exporter/gameserver_exporter/protocols/wire"

// Phase runs one phase after the info (players, rules, version...): timed in
// the trace as name, its failure added to errs (the Result's PhaseErrors), the
// probe still a success. It returns run's value, even on failure, and whether
// the phase succeeded.
func Phase[T any](errs *[]PhaseError, tr *wire.Trace, name string, run func() (T, error)) (T, bool) {
	p := tr.Begin(name)
	v, err := run()
	tr.End(p, err)
	if err != nil {
		*errs = append(*errs, PhaseError{Phase: name, Err: err})
		return v, false
	}
	return v, true
}
