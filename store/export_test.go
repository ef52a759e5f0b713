package store

import "golang.org/x/crypto/bcrypt"

// Tests hash with the cheapest cost; production keeps bcrypt.DefaultCost.
func init() { bcryptCost = bcrypt.MinCost }
