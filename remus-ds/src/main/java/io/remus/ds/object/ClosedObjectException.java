package io.remus.ds.object;

import io.remus.core.error.BadArgumentException;

/**
 * An object of this package was used after it was destroyed: a call on the handle that destroyed it, an
 * {@code attach} to its pointer, a second {@code destroy} from another handle, or an operation of another
 * handle that reads the object's root and found its root block freed or reused. The message names the
 * object's type and pointer. Nothing was changed by the call that throws it, apart from what its class
 * documents for operations that write before they read the root.
 */
public class ClosedObjectException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which object, and how it was found destroyed
     */
    public ClosedObjectException(String message) {
        super(message);
    }
}
