package bench

// Project is one benchmark under construction.
type Project struct {
	ID        int64
	Name      string
	Settings  Settings
	CreatedBy int64
	CreatedAt string
	// Role and Group are those of the user who read the project (Projects,
	// ProjectByName) as its member: roles are per project. Empty for Owner.
	Role  string
	Group string
}
