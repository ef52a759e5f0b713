package shortcut

import "fmt"

// MaxFolds bounds the text-only model's k: each fold fits the model again.
const MaxFolds = 20

// Check refuses options the audit cannot honour; zero fields take their
// defaults. Its error is the sentence saying why.
func (o Options) Check() error {
	switch {
	case o.Margin < 0 || o.Margin >= 1:
		return fmt.Errorf("the margin must be between 0 and 100 points")
	case o.Folds < 0 || o.Folds > MaxFolds:
		return fmt.Errorf("the folds must be between 2 and %d", MaxFolds)
	case o.Level < 0 || o.Level >= 1:
		return fmt.Errorf("the test's level must be between 0 and 1")
	case o.MinSamples < 0:
		return fmt.Errorf("the fewest samples a check judges cannot be negative")
	}
	return nil
}
