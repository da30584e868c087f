package idtechtest

import "reflect"

// Kept counts the player lines (parsed and unparsed) and the info pairs an
// idTech reply keeps: the Players and Unparsed of its idtech.Lines, the Pairs
// of its idtech.Info or idtech.Q3Reply (Fuzz checks them against the caps).
func Kept[T any](r *T) (lines, pairs int) {
	v := reflect.ValueOf(r).Elem()
	return v.FieldByName("Players").Len() + int(v.FieldByName("Unparsed").Int()), v.FieldByName("Pairs").Len()
}
