// Package packaging holds what `scripts/dev package` puts into the installable
// builds beside the programs (the systemd unit of bwctl serve, the Debian
// package's control file and maintainer scripts) and the tests of those builds:
// the Linux archive installed into a temporary prefix and its app started under
// Xvfb, the Debian package's contents and unit, the Windows programs' headers.
//
// The builds take minutes, so the tests do not make them: `scripts/dev test`
// runs `scripts/dev package` once into a temporary folder and these tests on it
// (BENCHWRIGHT_PACKAGE_DIR); without that variable they are skipped.
package packaging
