// Package derive implements PCP's derived metrics, pmRegisterDerived(3):
// the expression language (parsed with libpcp's error texts and
// positions), the metadata rules that give each derived metric its
// descriptor, and the evaluation of derived values from the values of
// the real metrics they are defined over.
//
// A Registry holds global definitions (RegisterDerived, LoadConfig, the
// defaults PCP loads when PCP_DERIVED_CONFIG is unset). A Layer lays
// those, and its own per-context definitions (AddDerived), over a Base:
// any client context that can look up names, descriptors and instances
// and fetch values. pmapi wraps its contexts this way, so derived metrics
// look like real ones to every tool.
//
// Registry and Layer are safe for concurrent use; a Layer serialises
// its fetches, as delta() and rate() keep the previous sample.
package derive
