package io.remus.core.error;

/**
 * A participant arrived at a cluster barrier whose current round was opened by a participant that
 * counts a different number of participants. The arrival was not counted, so the round cannot
 * release early; the participants that agree with the round's count wait for the missing arrivals
 * (and time out if they never come).
 */
public class BarrierMismatchException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The participant count of the refused participant. */
    private final int participants;
    /** The participant count the current round was opened with. */
    private final long roundParticipants;

    /**
     * Creates the exception for a refused arrival.
     *
     * @param participants      the count of the refused participant
     * @param roundParticipants the count the round was opened with
     * @param message           which barrier
     */
    public BarrierMismatchException(int participants, long roundParticipants, String message) {
        super(message);
        this.participants = participants;
        this.roundParticipants = roundParticipants;
    }

    /** {@return the participant count of the refused participant} */
    public int participants() {
        return participants;
    }

    /** {@return the participant count the current round was opened with} */
    public long roundParticipants() {
        return roundParticipants;
    }
}
