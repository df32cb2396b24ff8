package io.remus.tools.experiment.numa;

/** The errno names the memory-policy and affinity calls return. */
final class Errno {
    private Errno() {
    }

    static String name(int errno) {
        return switch (errno) {
            case 1 -> "EPERM";
            case 3 -> "ESRCH";
            case 12 -> "ENOMEM";
            case 14 -> "EFAULT";
            case 22 -> "EINVAL";
            case 38 -> "ENOSYS";
            case 5 -> "EIO";
            default -> "errno " + errno;
        };
    }
}
