/** A file the user picked, as text or as base64 (the data URL's prefix cut off). */
export const readFile = (file: File, as: 'text' | 'base64') =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => resolve(as === 'text' ? String(reader.result) : String(reader.result).replace(/^data:[^,]*,/, ''));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
